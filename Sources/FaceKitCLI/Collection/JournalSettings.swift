/// The options of a collection run that shape its output, as its journal's first line records
/// them (see ``CollectionJournal``): two runs with equal settings write the same output, and
/// shards whose settings differ only in `shard` are parts of one output.
protocol JournalSettings: Codable, Equatable, Sendable {
    /// The command that writes such journals, `facekit analyze`: the header's `journal`.
    static var journalName: String { get }
    /// The settings every collection command records: the format, the shard, the paths, ...
    var collection: CollectionSettings { get set }
    /// The settings as the command line gives them, one phrase each: `--format csv`,
    /// `--landmarks` or `no --landmarks`, `the paths photos/, extra.jpg`.
    var phrases: [(key: String, text: String)] { get }
}

extension JournalSettings {
    /// `csv` or `jsonl`.
    var format: String {
        get { collection.format }
        set { collection.format = newValue }
    }
    /// `--shard K/N` as given, `nil` without it.
    var shard: String? {
        get { collection.shard }
        set { collection.shard = newValue }
    }

    /// `(interrupted run, this run)` phrases of the settings that differ.
    func differences(from interrupted: Self) -> (then: [String], now: [String]) {
        var then: [String] = []
        var now: [String] = []
        for (old, new) in zip(interrupted.phrases, phrases) where old.text != new.text {
            then.append(old.text)
            now.append(new.text)
        }
        return (then, now)
    }

    /// These settings without `--shard`: what every shard of one output has in common.
    var unsharded: Self {
        var settings = self
        settings.shard = nil
        return settings
    }

    /// Whether `other` comes from the same command with the same settings, `--shard` aside; when
    /// not, the phrases that differ (`other`'s, then these), or the two commands.
    func shardDifferences(from other: any JournalSettings) -> (then: [String], now: [String])? {
        guard let other = other as? Self else { return ([type(of: other).journalName], [Self.journalName]) }
        let (then, now) = unsharded.differences(from: other.unsharded)
        return then.isEmpty && now.isEmpty ? nil : (then, now)
    }
}

/// What makes two runs of one collection command write the same output: the settings every
/// such command records (``CollectionSettings``) and the command's own (``CommandSettings``),
/// kept in the journal as one flat JSON object (keys sorted), as if they were one struct's.
///
/// Both parts read and write through the same decoder and encoder, so a journal has the keys
/// it had before the two were split, and a journal missing a key either part needs is not read.
///
/// ```swift
/// var settings = AnalyzeSettings(collection, AnalyzeOwnSettings(contours: false, minDetectionScore: 0.85, orientation: .any, maxPixels: 10))
/// settings.landmarks = true   // the collection's
/// settings.maxPixels          // 10, the command's own
/// ```
@dynamicMemberLookup
struct RecordedSettings<Own: CommandSettings>: JournalSettings {
    static var journalName: String { Own.journalName }

    var collection: CollectionSettings
    var own: Own

    init(_ collection: CollectionSettings, _ own: Own) {
        self.collection = collection
        self.own = own
    }

    init(from decoder: any Decoder) throws {
        collection = try CollectionSettings(from: decoder)
        own = try Own(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try collection.encode(to: encoder)
        try own.encode(to: encoder)
    }

    var phrases: [(key: String, text: String)] { own.phrases(with: collection) }

    subscript<Value>(dynamicMember path: WritableKeyPath<CollectionSettings, Value>) -> Value {
        get { collection[keyPath: path] }
        set { collection[keyPath: path] = newValue }
    }

    subscript<Value>(dynamicMember path: WritableKeyPath<Own, Value>) -> Value {
        get { own[keyPath: path] }
        set { own[keyPath: path] = newValue }
    }
}

/// The settings of one collection command that the others do not have: analyze's
/// `--contours` and `--max-pixels`, track's frame and tracker options.
protocol CommandSettings: Codable, Equatable, Sendable {
    /// The command that writes such journals, `facekit analyze`: the header's `journal`.
    static var journalName: String { get }
    /// All the phrases of these settings beside `collection`'s
    /// (``CollectionSettings/phrases(detection:own:)``), in the order messages list them.
    func phrases(with collection: CollectionSettings) -> [(key: String, text: String)]
}

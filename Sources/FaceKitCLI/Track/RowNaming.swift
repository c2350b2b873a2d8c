import FaceKit

/// `facekit track --known`'s rows of one video on their way out: a face's row waits until its
/// person's name is settled (``FaceTracker/personDescriptor(ofTrack:)``: once their first track
/// has ended for good or been on screen 30 s, as IDs are decided), then the rows go out in their
/// order, so that what waits in memory is bounded by that delay, not by the video's length.
///
/// ```swift
/// var naming = RowNaming(tracker: tracker, known: known)
/// naming.add(.face(record), to: &rows)   // written, with its name, once the name is settled
/// naming.finish(into: &rows)             // after the video's end: every row left
/// ```
struct RowNaming {
    let tracker: FaceTracker
    let known: KnownPeople
    /// Each person's match by final ID, once settled (`nil`: a person with no descriptor).
    private var names: [Int: KnownPeople.Match?] = [:]
    /// Rows not yet written, from `first` on (a queue; the front is dropped in bulk).
    private var waiting: [TableRow] = []
    private var first = 0

    init(tracker: FaceTracker, known: KnownPeople) {
        self.tracker = tracker
        self.known = known
    }

    /// Queues `row` and writes every row from the front whose person is named.
    mutating func add(_ row: TableRow, to rows: inout TrackRows) {
        waiting.append(row)
        writeNamed(to: &rows)
    }

    /// Writes every row left: call after the video has ended (``FaceTracker/finishVideo()``), when
    /// every person is settled.
    mutating func finish(into rows: inout TrackRows) {
        writeNamed(to: &rows)
        // Only if the video ended without its end being reached (the tracker gave up): unnamed.
        for row in waiting[first...] { write(row, person: nil, to: &rows) }
        waiting = []
        first = 0
        names = [:]
    }

    /// Writes the rows from the front while their people are named, looking up the names
    /// settled since the last look at most once.
    private mutating func writeNamed(to rows: inout TrackRows) {
        var refreshed = false
        while first < waiting.count {
            let row = waiting[first]
            var person: KnownPeople.Match?
            if case .face(let record) = row {
                let id = record.face.trackingID!
                if names[id] == nil, !refreshed {
                    refresh()
                    refreshed = true
                }
                guard let match = names[id] else { break }
                person = match
            }
            write(row, person: person, to: &rows)
            first += 1
        }
        if first == waiting.count || first > 4096 {
            waiting.removeFirst(first)
            first = 0
        }
    }

    private func write(_ row: TableRow, person: KnownPeople.Match?, to rows: inout TrackRows) {
        switch row {
        case .face(var record):
            record.person = person
            rows.write(record)
        case .faceless(let record): rows.write(record)
        }
    }

    /// Takes the names of the people settled since the last look.
    private mutating func refresh() {
        for (id, descriptor) in tracker.settledPersonDescriptors() where names[id] == nil {
            names[id] = .some(descriptor.map(known.match))
        }
    }
}

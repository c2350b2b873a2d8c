/// Where `facekit track` puts each face it reports, from a file or a live source alike: its row,
/// its line of the `--summary` table, and the faces and tracking IDs its closing line counts.
///
/// ```swift
/// var rows = TrackRows(writer: writer, summary: true, countsBlinks: true, namesPeople: false)
/// for record in records { rows.write(record) }
/// let counts = rows.takeCounts()   // (faces: 124, tracks: 3)
/// ```
struct TrackRows {
    let writer: any FaceRecordWriter
    /// The `--summary` table, when one was asked for.
    private(set) var summary: TrackSummary?
    private var faces = 0
    private var trackingIDs = Set<Int>()

    init(writer: any FaceRecordWriter, summary: Bool, countsBlinks: Bool, namesPeople: Bool) {
        self.writer = writer
        self.summary = summary ? TrackSummary(countsBlinks: countsBlinks, namesPeople: namesPeople) : nil
    }

    /// Writes the row of an analysed frame without a face, or of a video that failed: no track,
    /// nothing to sum up.
    func write(_ record: FacelessRecord) { writer.write(record) }

    /// Writes the record's row and adds it to the summary.
    mutating func write(_ record: FaceRecord) {
        writer.write(record)
        summary?.add(record)
        faces += 1
        trackingIDs.insert(record.face.trackingID!)
    }

    /// The faces written and the tracking IDs among them since the last call (one video's), then
    /// counts again from zero.
    mutating func takeCounts() -> (faces: Int, tracks: Int) {
        defer {
            faces = 0
            trackingIDs = []
        }
        return (faces, trackingIDs.count)
    }

    /// Writes the summary table into `file` and commits it: after the rows, which may go to the
    /// same standard output.
    func commitSummary(to file: OutputFile?) throws(OutputError) {
        guard let file, let summary else { return }
        file.write(summary.csv())
        try file.commit()
    }
}

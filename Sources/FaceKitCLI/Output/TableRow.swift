/// One row of `analyze`'s or `track`'s table, with a face or without one, for rows that wait in
/// order before they are written (a video's, until its tracks are joined).
enum TableRow {
    case face(FaceRecord)
    case faceless(FacelessRecord)
}

extension FaceRecordWriter {
    /// Writes the row, whichever kind it is.
    func write(_ row: TableRow) {
        switch row {
        case .face(let record): write(record)
        case .faceless(let record): write(record)
        }
    }
}

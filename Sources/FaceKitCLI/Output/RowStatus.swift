/// What a row of `analyze`'s or `track`'s table is about, its `status` column: a face, and how it
/// was found, or an input without one. A reader keeps the faces with one test (pandas:
/// `df[df.face.notna()]`, or `df[df.status != "no_face"]` where no input failed).
enum RowStatus: String, CaseIterable, Sendable {
    /// A face the detector found in this image or frame.
    case detected
    /// A video frame's face carried there from the frame before by optical flow, between detections.
    case followed
    /// An image, or an analysed video frame, in which no face was found.
    case noFace = "no_face"
    /// An input that could not be analysed; the `failure` column says why.
    case failed

    /// Whether a table's `status` cell is a face's (`detected`, `followed`) rather than `no_face`,
    /// `failed` or a status a later facekit may add: what `group` and `report` read as a face.
    static func holdsFace(_ text: String) -> Bool {
        text == detected.rawValue || text == followed.rawValue
    }
}

/// An input that could not be analysed, with the line reported for it: what `analyze`, `group`,
/// `report` and `annotate` print on standard error for a photo they skip.
///
/// ```swift
/// FailedInput(description: "photos/b.jpg: not an image")
/// ```
struct FailedInput: Error {
    var description: String
}

// `package`: the tools' detector owner (FaceKitDatasets/Interop) collects its results this way too.
package import CFaceKit

/// Runs a shim call that writes at most `capacity` records to `out` and says in `count` how many
/// it found in all (the detection calls: YuNet's, dlib's CNN, the tools' detectors): first with
/// room for `capacity`, and when more were found, once more with room for all of them.
///
/// - Parameter subject: what the call was about, for the message (``callNative(subject:_:)``).
package func callNativeCollecting<Record>(
    subject: String, capacity: Int, empty: Record,
    _ body: (_ out: UnsafeMutablePointer<Record>, _ capacity: Int32, _ count: UnsafeMutablePointer<Int32>,
        UnsafeMutablePointer<fk_error>) -> Int32
) throws(FaceKitError) -> [Record] {
    var capacity = capacity
    while true {
        var buffer = [Record](repeating: empty, count: capacity)
        var count: Int32 = 0
        try callNative(subject: subject) { body(&buffer, Int32(capacity), &count, $0) }
        guard Int(count) > capacity else { return Array(buffer.prefix(Int(count))) }
        capacity = Int(count)
    }
}

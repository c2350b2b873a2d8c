import FaceKit
import Foundation

/// Remembers the 68 points found for each training image or frame, so that trying another
/// feature or model does not repeat minutes of detection. Keyed by file path (or video#frame);
/// a face-less entry is remembered too. Used only with `--cache FILE`; delete the file after
/// changing the detector or the data.
final class ShapeCache {
    private let file: URL?
    private var shapes: [String: FaceShape?] = [:]

    init(file: URL?) throws {
        self.file = file
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return }
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { continue }
            let numbers = fields[1].split(separator: " ").compactMap { Double($0) }
            shapes[String(fields[0])] = numbers.count == 136
                ? FaceShape(points: stride(from: 0, to: 136, by: 2).map { CGPoint(x: numbers[$0], y: numbers[$0 + 1]) })
                : .some(nil)
        }
    }

    func contains(_ key: String) -> Bool { shapes[key] != nil }

    /// The cached shape for `key`, or the one `compute` finds (then remembered).
    func shape(for key: String, compute: () throws -> FaceShape?) rethrows -> FaceShape? {
        if let known = shapes[key] { return known }
        let shape = try compute()
        shapes[key] = .some(shape)
        return shape
    }

    func save() throws {
        guard let file else { return }
        let lines = shapes.keys.sorted().map { key -> String in
            let points = shapes[key]!.map { $0.points.map { "\($0.x) \($0.y)" }.joined(separator: " ") } ?? "none"
            return key + "\t" + points
        }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    }
}

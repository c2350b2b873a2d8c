import Foundation

/// One hand-placed nose point per face (CompreFace's `noses.csv`: `file,nose_x,nose_y`).
public enum NosePoints {
    /// Nose points grouped by absolute image path, in file order.
    public static func read(_ path: String) throws -> [(file: String, noses: [CGPoint])] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var result: [(file: String, noses: [CGPoint])] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 3, let x = Double(fields[1]), let y = Double(fields[2]) else { continue }
            let file = folder.appendingPathComponent(String(fields[0])).path
            if result.last?.file != file { result.append((file, [])) }
            result[result.count - 1].noses.append(CGPoint(x: x, y: y))
        }
        return result
    }
}

import Foundation

/// 68 points placed by people in the iBUG 300-W `.pts` format (1-based pixels), as used by the
/// Helen files in the development data.
public enum LandmarkAnnotation {
    /// The points of a `.pts` file, converted to 0-based pixels.
    public static func read(_ path: String) throws -> [CGPoint] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var points: [CGPoint] = []
        var inside = false
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("{") { inside = true; continue }
            if line.hasPrefix("}") { break }
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            if inside || (numbers.count == 2 && !line.contains(":")) {
                if numbers.count == 2 { points.append(CGPoint(x: numbers[0] - 1, y: numbers[1] - 1)) }
            }
        }
        return points
    }
}

import Foundation

/// Per-frame ground truth of a clip (`frame,identity,x,y,width,height`, as TestVideos/*.csv), or
/// OTB's `x y w h` per line.
public struct GroundTruth: Sendable {
    public struct Box: Sendable {
        public var frame: Int
        public var identity: String
        public var box: CGRect
    }

    public var boxes: [Box]

    /// Reads a TestVideos CSV.
    public init(csvFile path: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        boxes = lines.map { line in
            let cells = line.split(separator: ",").map(String.init)
            return Box(
                frame: Int(cells[0])!, identity: cells[1],
                box: CGRect(x: Double(cells[2])!, y: Double(cells[3])!, width: Double(cells[4])!, height: Double(cells[5])!))
        }
    }

    /// Reads OTB's groundtruth_rect.txt (one `x y w h` per frame, tab, space or comma separated,
    /// 1-based pixels) as one identity, frames 0-based.
    public init(otbFile path: String, identity: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        boxes = lines.enumerated().map { index, line in
            let values = line.split(whereSeparator: { " \t,".contains($0) }).map { Double($0)! }
            return Box(frame: index, identity: identity, box: CGRect(x: values[0] - 1, y: values[1] - 1, width: values[2], height: values[3]))
        }
    }
}

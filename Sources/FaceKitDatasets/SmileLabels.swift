import Foundation

/// Smile labels: GENKI-4K's `labels.csv` (`file,smile,yaw_rad,pitch_rad,roll_rad`) and
/// SMILEsmileD's (`file,smile`). Files are made absolute against the labels' folder.
public enum SmileLabels {
    public struct Entry: Sendable {
        public var file: String
        public var smiling: Bool
        /// GENKI-4K's head pose, in radians as the file gives it (`nil` for SMILEsmileD).
        public var yaw: Double?
        public var pitch: Double?
        public var roll: Double?
    }

    public static func read(_ path: String) throws -> [Entry] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
            .compactMap { line in
                let fields = line.split(separator: ",")
                guard fields.count >= 2, let smile = Int(fields[1]) else { return nil }
                let pose = fields.count >= 5 ? fields[2...4].map { Double($0) } : [nil, nil, nil]
                return Entry(
                    file: folder.appendingPathComponent(String(fields[0])).path, smiling: smile == 1, yaw: pose[0],
                    pitch: pose[1], roll: pose[2])
            }
    }

    /// A file's number (`file0123.jpg` or `pos_123.jpg` give 123), for splitting by number.
    public static func number(of file: String) -> Int? {
        Int(URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent.filter(\.isNumber))
    }
}

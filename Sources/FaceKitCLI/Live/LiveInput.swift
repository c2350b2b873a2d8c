import FaceKit
import Foundation

/// The inputs of `track` and `annotate` that are not files: `-` for standard input, a stream URL (`udp://`,
/// `rtsp://`, `http(s)://`, anything with a scheme FFmpeg may open) and V4L2 cameras
/// (`/dev/video*`).
enum LiveInput {
    /// The live source `argument` names, or `nil` for a file or folder.
    static func source(named argument: String) -> VideoReader.LiveSource? {
        if argument == "-" { return .standardInput }
        if argument.hasPrefix("/dev/video") { return .device(argument) }
        if let colon = argument.firstIndex(of: ":"), argument[colon...].hasPrefix("://") {
            let scheme = argument[..<colon]
            let isScheme =
                scheme.first?.isLetter == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if isScheme { return .url(argument) }
        }
        return nil
    }

    /// The file name of `annotate`'s copy of `source`: `stdin.mkv`, `video0.mkv` for
    /// `/dev/video0`, `udp-127.0.0.1-5004.mkv` for `udp://127.0.0.1:5004` (what is not a letter,
    /// a digit, `.` or `_` becomes `-`). Matroska, because a copy cut short by a kill still plays.
    static func copyName(for source: VideoReader.LiveSource) -> String {
        let stem: String
        switch source {
        case .standardInput: stem = "stdin"
        case .device(let path): stem = path.split(separator: "/").last.map(String.init) ?? "camera"
        case .url(let url):
            var text = ""
            for character in url {
                let kept = character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_")
                if kept { text.append(character) } else if !text.hasSuffix("-") { text.append("-") }
            }
            stem = String(text.trimmingCharacters(in: CharacterSet(charactersIn: "-.")).prefix(200))
        }
        return (stem.isEmpty ? "stream" : stem) + ".mkv"
    }
}

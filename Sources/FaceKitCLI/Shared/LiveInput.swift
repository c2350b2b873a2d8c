import FaceKit

/// The inputs of `track` that are not files: `-` for standard input, a stream URL (`udp://`,
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
}

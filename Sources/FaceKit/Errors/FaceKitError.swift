/// Failures FaceKit reports. Each names what failed and why, in words fit for a user.
public enum FaceKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An option value, or a combination of options, that cannot be honoured.
    case invalidOption(name: String, reason: String)
    /// The file could not be read: missing, a folder, no permission.
    case unreadableFile(path: String, reason: String)
    /// The file could not be created or written: missing folder, no permission, a folder in the way.
    case unwritableFile(path: String, reason: String)
    /// The bytes are not an image FaceKit can decode: empty, unknown format, corrupt, truncated.
    case notAnImage(source: String, reason: String)
    /// The file is not a video FaceKit can decode: empty, no video stream, unknown container.
    case notAVideo(source: String, reason: String)
    /// The image has more pixels than the configured limit.
    case imageTooLarge(source: String, reason: String)
    /// A model file is missing or is not the model expected.
    case modelUnavailable(name: String, reason: String)
    /// An unexpected failure inside OpenCV or dlib.
    case native(reason: String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let reason): "invalid option \(name): \(reason)"
        case .unreadableFile(let path, let reason): "\(path): cannot read file: \(reason)"
        case .unwritableFile(let path, let reason): "\(path): cannot write file: \(reason)"
        case .notAnImage(let source, let reason): "\(source): not a readable image: \(reason)"
        case .notAVideo(let source, let reason): "\(source): not a readable video: \(reason)"
        case .imageTooLarge(let source, let reason): "\(source): image too large: \(reason)"
        case .modelUnavailable(let name, let reason): "model \(name) unavailable: \(reason)"
        case .native(let reason): "internal error: \(reason)"
        }
    }
}

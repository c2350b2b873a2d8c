import Foundation

/// A named point on a face, as in ML Kit's `FaceLandmark`. Left and right are the subject's:
/// the subject's left eye appears on the image's right in a frontal photo.
public struct FaceLandmark: Sendable, Equatable {
    public enum LandmarkType: String, Sendable, CaseIterable {
        case leftEye, rightEye
        case leftEar, rightEar
        case leftCheek, rightCheek
        case noseBase
        case mouthLeft, mouthRight, mouthBottom

        /// The name used in CSV headers and JSON keys, e.g. `left_eye`.
        public var snakeCaseName: String {
            rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
            }
        }
    }

    public var type: LandmarkType
    /// Position in pixels of the upright image.
    public var position: CGPoint

    public init(type: LandmarkType, position: CGPoint) {
        self.type = type
        self.position = position
    }
}

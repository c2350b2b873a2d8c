import Foundation

/// An outline of a facial feature, as in ML Kit's `FaceContour`: 15 types, 133 points in all.
public struct FaceContour: Sendable, Equatable {
    public enum ContourType: String, Sendable, CaseIterable {
        case face
        case leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom
        case leftEye, rightEye
        case upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom
        case noseBridge, noseBottom
        case leftCheek, rightCheek

        /// Number of points ML Kit gives this contour.
        public var pointCount: Int {
            switch self {
            case .face: 36
            case .leftEyebrowTop, .leftEyebrowBottom, .rightEyebrowTop, .rightEyebrowBottom: 5
            case .leftEye, .rightEye: 16
            case .upperLipTop: 11
            case .upperLipBottom, .lowerLipTop, .lowerLipBottom: 9
            case .noseBridge: 2
            case .noseBottom: 3
            case .leftCheek, .rightCheek: 1
            }
        }

        /// The name used in JSON keys, e.g. `left_eyebrow_top`.
        public var snakeCaseName: String {
            rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
            }
        }
    }

    public var type: ContourType
    /// Points in pixels of the upright image, `type.pointCount` of them.
    public var points: [CGPoint]

    public init(type: ContourType, points: [CGPoint]) {
        self.type = type
        self.points = points
    }
}

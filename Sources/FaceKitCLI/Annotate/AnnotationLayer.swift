import Foundation
import FaceKitArguments

/// One kind of mark `facekit annotate` draws on a face.
enum AnnotationLayer: String, CaseIterable, Sendable, Comparable {
    /// The face box.
    case boxes
    /// The 10 landmarks, as dots.
    case landmarks
    /// The 15 contours (133 points), as lines.
    case contours
    /// The head pose, as 3D axes drawn from the nose.
    case pose
    /// The tracking ID, in video.
    case ids
    /// The smiling and eye-open probabilities, as short text.
    case labels

    static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The value of `--draw`: a comma-separated list of ``AnnotationLayer`` names, or `all`.
///
/// ```swift
/// AnnotationLayers(argument: "boxes,pose")?.layers   // [.boxes, .pose]
/// AnnotationLayers(argument: "all")?.layers          // every layer
/// AnnotationLayers(argument: "boxes,hats")           // nil: a usage error
/// ```
struct AnnotationLayers: ExpressibleByArgument, Sendable, Equatable {
    var layers: Set<AnnotationLayer>

    init(_ layers: Set<AnnotationLayer>) { self.layers = layers }

    init?(argument: String) {
        let words = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !words.isEmpty else { return nil }
        var layers: Set<AnnotationLayer> = []
        for word in words {
            if word == "all" {
                layers.formUnion(AnnotationLayer.allCases)
            } else if let layer = AnnotationLayer(rawValue: word) {
                layers.insert(layer)
            } else {
                return nil
            }
        }
        self.layers = layers
    }

    var defaultValueDescription: String { layers.sorted().map(\.rawValue).joined(separator: ",") }

    func contains(_ layer: AnnotationLayer) -> Bool { layers.contains(layer) }
}

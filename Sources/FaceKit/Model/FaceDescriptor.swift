import Foundation

/// dlib's 128-number face descriptor (the ResNet `dlib_face_recognition_resnet_model_v1.dat`,
/// computed from the face chip dlib aligns by the 68 points): two photos of one person are
/// usually closer than 0.6 (Euclidean), two people farther.
///
/// ```swift
/// var options = FaceDetectorOptions()
/// options.descriptorMode = .all
/// let faces = try FaceDetector(options: options).process(contentsOfFile: "team.jpg")
/// faces[0].descriptor!.distance(to: faces[1].descriptor!)   // 0.81: two people
/// ```
public struct FaceDescriptor: Sendable, Equatable, Hashable {
    /// Numbers in a descriptor.
    public static let length = 128

    /// The ``length`` numbers.
    public var values: [Float]

    public init(values: [Float]) {
        precondition(values.count == Self.length, "FaceDescriptor: \(values.count) values, not \(Self.length)")
        self.values = values
    }

    /// Euclidean distance: dlib's measure, about 0.6 between "same" and "different" person.
    public func distance(to other: FaceDescriptor) -> Double { Self.distance(values, other.values) }

    /// The Euclidean distance between two descriptors' numbers, summed in `Double`: the one
    /// distance of FaceKit (naming, grouping, re-identification); traps on different lengths.
    static func distance(_ a: [Float], _ b: [Float]) -> Double {
        precondition(a.count == b.count, "FaceDescriptor.distance: lengths \(a.count) and \(b.count) differ")
        var sum = 0.0
        for index in a.indices {
            let difference = Double(a[index]) - Double(b[index])
            sum += difference * difference
        }
        return sum.squareRoot()
    }

    /// The element-wise mean of `descriptors` (which must not be empty): one descriptor for
    /// several photos of a face, closer to each of them than they are to one another.
    public static func mean(of descriptors: [FaceDescriptor]) -> FaceDescriptor {
        precondition(!descriptors.isEmpty, "FaceDescriptor.mean: no descriptors")
        var sum = [Float](repeating: 0, count: length)
        for descriptor in descriptors {
            for index in 0..<length { sum[index] += descriptor.values[index] }
        }
        let count = Float(descriptors.count)
        return FaceDescriptor(values: sum.map { $0 / count })
    }
}

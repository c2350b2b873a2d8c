import FaceKit
import FaceKitArguments
import Foundation

/// The eye-state network's held-out probabilities, as `scripts/eye_model.py` writes them
/// (`heldout.csv`: group, source, eye, heldout_probability): for each eye FaceKit exported, the
/// calibrated probability given by the network trained without that eye's person fold.
enum EyeHeldOut {
    /// Where `scripts/train-eye-model` leaves them.
    static var defaultFile: URL { TrainingOptions.repository.appendingPathComponent(".eye-model/heldout.csv") }

    static func key(_ sample: EyeSamples.Sample) -> String { key(source: sample.source, eye: sample.eye == .left ? "left" : "right") }

    static func key(source: String, eye: String) -> String { source + "|" + eye }

    /// The probabilities by ``key(_:)``.
    static func read(_ file: URL) throws -> [String: Double] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw CommandError("cannot read \(file.path): run scripts/train-eye-model first (it writes the held-out probabilities)")
        }
        var result: [String: Double] = [:]
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated().dropFirst() {
            // The source may hold commas (it is then quoted): the other fields never do.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 4, let probability = Double(fields[fields.count - 1]) else {
                throw CommandError("\(file.path):\(number + 1): not group,source,eye,heldout_probability")
            }
            var source = fields[1..<(fields.count - 2)].joined(separator: ",")
            if source.hasPrefix("\"") { source = String(source.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") }
            result[key(source: source, eye: String(fields[fields.count - 2]))] = probability
        }
        return result
    }
}

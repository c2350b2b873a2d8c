import FaceKit
import Foundation

@testable import FaceKitCLI

/// A rule of `group`: the clustering threshold, and the photo-video join's (`nil`: no join).
struct PeopleRule: Equatable, CustomStringConvertible {
    var clustering: Double
    var joining: VideoPersonJoining?

    static let group = PeopleRule(clustering: FaceClustering.defaultThreshold, joining: VideoPersonJoining())

    var description: String {
        "cluster < \(String(format: "%.2f", clustering)), "
            + (joining.map { "join \($0.condition) < " + String(format: "%.2f", $0.threshold) } ?? "no photo-video join")
    }

    /// Each face's person, as `group` finds them.
    func people(_ faces: [DevelopmentPeople.Face]) throws -> [Int?] {
        let grouped = faces.map(\.face)
        let clustered = try GroupCommand.people(of: grouped, clustering: FaceClustering(threshold: clustering))
        guard let joining else { return clustered.people }
        return joining.join(grouped, people: clustered.people, count: clustered.count).people
    }
}

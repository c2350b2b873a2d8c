import FaceKitDatasets
import Foundation
import Testing

@Suite("DevelopmentData")
struct DevelopmentDataTests {
    @Test("the folder is $FACEKIT_TEST_DATA when set and not empty, else ../shared/data beside the repository")
    func folder() {
        let beside = DevelopmentData.repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        #expect(DevelopmentData(environment: [:]).folder.path == beside.path)
        #expect(DevelopmentData(environment: ["FACEKIT_TEST_DATA": ""]).folder.path == beside.path)
        #expect(DevelopmentData(environment: ["FACEKIT_TEST_DATA": "/data/dev"]).folder.path == "/data/dev")
        #expect(DevelopmentData(environment: [:]).path("photos/a.jpg") == beside.path + "/photos/a.jpg")
    }

    @Test("the repository is the checkout: it holds Package.swift and the models folder scripts/setup fills")
    func repository() {
        #expect(FileManager.default.fileExists(atPath: DevelopmentData.repository.appendingPathComponent("Package.swift").path))
        #expect(DevelopmentData.modelFolder == DevelopmentData.repository.path + "/.models")
    }

    @Test("the data is present only where its README.md is, and says why not otherwise")
    func presence() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facekit-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = DevelopmentData(folder: folder)
        #expect(!data.isPresent)
        #expect(data.absenceReason == "development data not found at \(folder.path) (no README.md there)")
        try Data("# Development data\n".utf8).write(to: data.url("README.md"))
        #expect(data.isPresent && data.absenceReason == nil)
    }
}

import Foundation
import Testing

@testable import FaceKit

@Suite("ModelLocator")
struct ModelLocatorTests {
    @Test("a model found nowhere is an error naming it, every folder searched, and the one step that fetches it")
    func missingModel() {
        let folders = ["/nonexistent/first", "/nonexistent/second"]
        let locator = ModelLocator(searchPath: folders)
        for model in ModelLocator.Model.allCases {
            #expect {
                try locator.path(for: model)
            } throws: { error in
                guard case .modelUnavailable(let name, let reason) = error as? FaceKitError else { return false }
                let step: String =
                    switch model {
                    case .faceDetector, .eyeState, .smile: "FaceKit_FaceKit.resources"
                    case .landmarks68, .faceDescriptor, .cnnFaceDetector: "scripts/fetch-models"
                    }
                return name == model.rawValue && folders.allSatisfy(reason.contains) && reason.contains(step)
            }
        }
    }

    @Test("dlib's models are looked for in the folder scripts/fetch-models fills by default")
    func userDataFolder() {
        #expect(ModelLocator().searchPath.contains(ModelLocator.userDataFolder))
        #expect(ModelLocator.userDataFolder.hasSuffix("/facekit"))
    }
}

import FaceKitTestSupport
import Foundation
import Testing

/// What the repository says about its licence and the toolchain it needs.
@Suite("Licence and requirements")
struct LicenceTests {
    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: TestData.repository.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static let copyright = "Copyright 2026 The FaceKit authors"

    @Test("LICENSE is the Apache License 2.0 with FaceKit's copyright, on top and in the appendix")
    func licence() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.hasPrefix(Self.copyright + "\n\n"))
        #expect(licence.contains("Apache License\n                           Version 2.0, January 2004\n"))
        #expect(licence.contains("\n   " + Self.copyright + "\n\n   Licensed under the Apache License, Version 2.0"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"))
    }

    @Test(
        "LICENSE has the standard text word for word, but for its copyright lines",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/common-licenses/Apache-2.0")))
    func standardText() throws {
        let standard = try String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8)
        let licence = try Self.text("LICENSE")
            .replacingOccurrences(of: Self.copyright + "\n\n", with: "", options: .anchored)
            .replacingOccurrences(
                of: "   " + Self.copyright + "\n", with: "   Copyright [yyyy] [name of copyright owner]\n")
        #expect(licence == standard)
    }

    @Test("the README names the licence, the toolchain and the platform, and keeps the landmark model's restriction")
    func readme() throws {
        let readme = try Self.text("README.md")
        #expect(readme.contains("Apache License 2.0 (`LICENSE`)"))
        #expect(readme.contains("Swift 6 toolchain") && readme.contains("6.3"))
        #expect(readme.contains("Debian 12 (bookworm) or Debian 13 (trixie) on x86-64"))
        #expect(readme.contains("arm64 (aarch64)"))
        #expect(readme.contains("non-commercial research only"))
        #expect(readme.contains("`BundledModels/LICENSE-yunet`"))
    }
}

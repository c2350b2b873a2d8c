import FaceKit
import Foundation

/// Where each picture of the report goes and what it shows. Pictures are named by number
/// (`images/photo-12.jpg`), never after their source, so that no input name reaches a path or a
/// URL of the report, and the site stays valid whatever the sources are called.
///
/// Every picture a page shows (thumbnail, face crop, contact-sheet frame) opens a full picture
/// of where it comes from: the photo with its faces' boxes, or the video frame annotated as
/// `facekit annotate` draws it, `images/full-N.jpg`, one per photo or frame however many
/// pictures link to it.
struct ReportLayout {
    /// A picture a page shows and the full picture it links to.
    struct Shown {
        var picture: String
        var full: String
    }

    /// A frame of a video's contact sheet.
    struct SheetFrame {
        var timeMs: Double
        var frame: Int
        var faces: [ReportFace]
        var shown: Shown
    }

    var photoThumbnails: [Shown] = []
    var personBest: [Shown] = []
    var personFaces: [[Shown]] = []
    /// Each video's tracks' best faces, in the order of ``VideoTracks/tracks``.
    var trackBest: [[Shown]] = []
    var sheets: [[SheetFrame]] = []
    /// The pictures to cut, one entry per source file.
    var jobs: [ReportPictures] = []

    /// The most frames a contact sheet shows; a long video's sheet spaces them wider.
    static let maximumSheetFrames = 48

    init(collection: ReportCollection, sheetIntervalSeconds: Double, locate: (String) -> String) {
        var jobIndex: [String: Int] = [:]
        var jobs: [ReportPictures] = []
        func add(_ picture: ReportPictures.Picture, source: String, isVideo: Bool) {
            let key = (isVideo ? "v:" : "p:") + source
            if let index = jobIndex[key] {
                jobs[index].pictures.append(picture)
            } else {
                jobIndex[key] = jobs.count
                jobs.append(ReportPictures(source: source, path: locate(source), isVideo: isVideo, pictures: [picture]))
            }
        }
        let facesAt = Self.facesByPicture(collection)
        var fullPictures: [String: String] = [:]
        /// The full picture of the photo or video frame `face` is in, cut once.
        func full(of face: ReportFace) -> String {
            let key = Self.key(face)
            if let path = fullPictures[key] { return path }
            let path = "images/full-\(fullPictures.count).jpg"
            fullPictures[key] = path
            let faces = facesAt[key] ?? []
            let kind: ReportPictures.Picture.Kind =
                face.isVideo
                ? .annotatedFrame(faces, width: ReportPictures.fullSide, labelHeight: nil)
                : .thumbnail(faces, side: ReportPictures.fullSide, named: true)
            add(.init(kind: kind, frame: face.frame, output: path), source: face.source, isVideo: face.isVideo)
            return path
        }
        func crop(_ face: ReportFace, to path: String) -> Shown {
            add(.init(kind: .crop(face.box), frame: face.frame, output: path), source: face.source, isVideo: face.isVideo)
            return Shown(picture: path, full: full(of: face))
        }
        for (index, photo) in collection.photos.enumerated() {
            let path = "images/photo-\(index).jpg"
            add(
                .init(kind: .thumbnail(photo.faces, side: ReportPictures.thumbnailSide), frame: nil, output: path),
                source: photo.source, isVideo: false)
            photoThumbnails.append(Shown(picture: path, full: full(of: ReportFace(source: photo.source, index: 0, box: .zero))))
        }
        for (index, person) in (collection.people ?? []).enumerated() {
            personBest.append(crop(person.best, to: "images/person-\(index).jpg"))
            personFaces.append(
                person.faces.enumerated().map { number, face in crop(face, to: "images/person-\(index)-\(number).jpg") })
        }
        for (index, video) in collection.videos.enumerated() {
            trackBest.append(
                video.tracks.enumerated().compactMap { number, track in
                    track.best.map { crop($0, to: "images/track-\(index)-\(number).jpg") }
                })
            var sheet: [SheetFrame] = []
            for (number, (time, frame)) in Self.sheetFrames(of: video, intervalSeconds: sheetIntervalSeconds).enumerated() {
                let path = "images/video-\(index)-\(number).jpg"
                let faces = video.framesWithFaces[frame] ?? []
                add(
                    .init(
                        kind: .annotatedFrame(
                            faces, width: ReportPictures.frameWidth, labelHeight: ReportPictures.sheetLabelHeight),
                        frame: frame, output: path),
                    source: video.source, isVideo: true)
                let at = ReportFace(source: video.source, frame: frame, index: 0, box: .zero)
                sheet.append(
                    SheetFrame(
                        timeMs: faces.first?.timestampMs ?? time, frame: frame, faces: faces,
                        shown: Shown(picture: path, full: full(of: at))))
            }
            sheets.append(sheet)
        }
        self.jobs = jobs
    }

    /// A photo, or a frame of a video: what one full picture shows.
    private static func key(_ face: ReportFace) -> String {
        face.isVideo ? "v:\(face.frame!):" + face.source : "p:" + face.source
    }

    /// The faces drawn on each full picture: a photo's rows, named as the Photos page names them,
    /// or a video frame's, named after their track's person; for a source only `group`'s tables name, the faces of its people.
    private static func facesByPicture(_ collection: ReportCollection) -> [String: [ReportFace]] {
        var faces: [String: [ReportFace]] = [:]
        for photo in collection.photos {
            // Each face named as the Photos page names it: its --known name, else its person's title.
            faces[key(ReportFace(source: photo.source, index: 0, box: .zero))] = photo.faces.map { face in
                var named = face
                if named.person == nil, let person = collection.personOf[ReportCollection.key(photo: photo.source, face: face.index)] {
                    named.person = collection.people?[person].title
                }
                return named
            }
        }
        for video in collection.videos {
            for (frame, rows) in video.framesWithFaces {
                faces[key(ReportFace(source: video.source, frame: frame, index: 0, box: .zero))] = rows
            }
        }
        var fromPeople: [String: [ReportFace]] = [:]
        for person in collection.people ?? [] {
            for face in person.faces where faces[key(face)] == nil { fromPeople[key(face), default: []].append(face) }
        }
        return faces.merging(fromPeople) { kept, _ in kept }
    }

    /// The frames of a contact sheet: one every `intervalSeconds` (wider when the video would
    /// need more than ``maximumSheetFrames``), each the analysed frame with faces nearest in time
    /// when one is within half an interval, else the frame shown at that time by the rows' rate.
    static func sheetFrames(of video: VideoTracks, intervalSeconds: Double) -> [(timeMs: Double, frame: Int)] {
        let analysed = video.framesWithFaces.compactMap { frame, faces in
            faces.first?.timestampMs.map { (timeMs: $0, frame: frame) }
        }.sorted { $0.timeMs < $1.timeMs }
        guard let first = analysed.first, let last = analysed.last else { return [] }
        let interval = max(intervalSeconds * 1000, video.durationMs / Double(maximumSheetFrames), 1)
        let framesPerMs = last.timeMs > first.timeMs ? Double(last.frame - first.frame) / (last.timeMs - first.timeMs) : 0
        var chosen: [(Double, Int)] = []
        var seen = Set<Int>()
        var time = 0.0
        while time <= last.timeMs {
            // The nearest analysed frame with faces, by binary search.
            var low = 0, high = analysed.count - 1
            while low < high {
                let middle = (low + high) / 2
                if analysed[middle].timeMs < time { low = middle + 1 } else { high = middle }
            }
            var nearest = analysed[low]
            if low > 0, abs(analysed[low - 1].timeMs - time) < abs(nearest.timeMs - time) { nearest = analysed[low - 1] }
            let frame =
                abs(nearest.timeMs - time) <= interval / 2 || framesPerMs == 0
                ? nearest.frame : max(0, first.frame + Int(((time - first.timeMs) * framesPerMs).rounded()))
            if seen.insert(frame).inserted { chosen.append((time, frame)) }
            time += interval
        }
        return chosen
    }
}

import FaceKit
import Foundation

/// Where each picture of the report goes and what it shows. Pictures are named by number
/// (`images/photo-12.jpg`), never after their source, so that no input name reaches a path or a
/// URL of the report, and the site stays valid whatever the sources are called.
struct ReportLayout {
    /// A frame of a video's contact sheet.
    struct SheetFrame {
        var timeMs: Double
        var frame: Int
        var faces: [ReportFace]
        var picture: String
    }

    var photoThumbnails: [String] = []
    var personBest: [String] = []
    var personFaces: [[String]] = []
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
        for (index, photo) in collection.photos.enumerated() {
            let path = "images/photo-\(index).jpg"
            photoThumbnails.append(path)
            add(.init(kind: .thumbnail(photo.faces), frame: nil, output: path), source: photo.source, isVideo: false)
        }
        for (index, person) in (collection.people ?? []).enumerated() {
            let best = "images/person-\(index).jpg"
            personBest.append(best)
            add(
                .init(kind: .crop(person.best.box), frame: person.best.frame, output: best), source: person.best.source,
                isVideo: person.best.isVideo)
            var faces: [String] = []
            for (number, face) in person.faces.enumerated() {
                let path = "images/person-\(index)-\(number).jpg"
                faces.append(path)
                add(.init(kind: .crop(face.box), frame: face.frame, output: path), source: face.source, isVideo: face.isVideo)
            }
            personFaces.append(faces)
        }
        for (index, video) in collection.videos.enumerated() {
            var sheet: [SheetFrame] = []
            for (number, (time, frame)) in Self.sheetFrames(of: video, intervalSeconds: sheetIntervalSeconds).enumerated() {
                let path = "images/video-\(index)-\(number).jpg"
                let faces = video.framesWithFaces[frame] ?? []
                sheet.append(SheetFrame(timeMs: faces.first?.timestampMs ?? time, frame: frame, faces: faces, picture: path))
                add(.init(kind: .annotatedFrame(faces), frame: frame, output: path), source: video.source, isVideo: true)
            }
            sheets.append(sheet)
        }
        self.jobs = jobs
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

import FaceKit
import Foundation

/// Everything a report shows, gathered from the tables given and the inputs analysed: photos with
/// their faces, videos with their tracks, people, and the files that failed.
struct ReportCollection {
    struct Photo {
        var source: String
        var faces: [ReportFace]
        /// The highest smile probability among its faces.
        var smile: Double? { faces.compactMap(\.smiling).max() }
    }

    struct Person {
        /// `facekit group`'s number, or the report's own; `nil` for people only a `--known` name groups.
        var id: Int?
        var name: String?
        var faceCount: Int
        var photos: Int
        var videos: Int
        var best: ReportFace
        /// Its faces, best shots first; a video's track counts once, by its best face.
        var faces: [ReportFace]

        var title: String { name ?? id.map { "Person \($0)" } ?? "Unknown" }
    }

    struct Failure {
        var source: String
        var reason: String
    }

    var photos: [Photo] = []
    var videos: [VideoTracks] = []
    /// From `group`'s tables, or else found here (``ReportPeople``); `nil` only when there is no
    /// photo and no video to find them in.
    var people: [Person]?
    /// Each photo face's and track's person, an index of ``people``, by ``key(photo:face:)`` and
    /// ``key(video:track:)``.
    var personOf: [String: Int] = [:]
    /// What the People page says about how its people were found and what is not in them (HTML).
    var peopleNotes: [String] = []
    var failures: [Failure] = []
    /// The tables read, with what each held.
    var tables: [(path: String, description: String)] = []
    /// Whether photos without faces are known (they are when the report analysed them itself;
    /// a table has rows only for faces).
    var knowsFacelessPhotos = false
    /// The options of the run, as `name value` lines for the overview.
    var options: [(String, String)] = []

    /// Videos only `group`'s faces.csv names (a row per track, no timelines), with how many
    /// tracks it has of each: counted with ``videos`` so that the overview and the people cards agree.
    var groupedVideos: [(source: String, tracks: Int)] = []

    var faceCount: Int { photos.reduce(0) { $0 + $1.faces.count } }
    var videoCount: Int { videos.count + groupedVideos.count }
    var trackCount: Int { videos.reduce(0) { $0 + $1.tracks.count } + groupedVideos.reduce(0) { $0 + $1.tracks } }

    /// Builds the collection from face rows (analysed here or read from tables), `track
    /// --summary` rows and `group`'s people rows. Photos come in the order of the tables' rows,
    /// then those analysed here (`analysedPhotos`, with or without faces) in path order.
    ///
    /// Rows of `group`'s faces.csv (those with a `person_id`) make the People page; their photo
    /// rows also make the Photos page for a photo no other table covers, while a video's
    /// timelines come only from `track` rows (faces.csv has one row per track): a video only
    /// faces.csv names is counted and listed (``groupedVideos``), without a page. Without
    /// `group`'s tables the people are found here (``ReportPeople``).
    ///
    /// `trackDescriptors` are the descriptors of the tracks of videos analysed here, by source
    /// and tracking ID (a track table's rows carry their own, if any).
    init(
        faces: [ReportFace], groupFaces: [ReportFace], summaries: [ReportTable.TrackSummaryRow],
        peopleRows: [ReportTable.PersonRow]?, analysedPhotos: [String], facesPerPerson: Int,
        trackDescriptors: [String: [Int: FaceDescriptor]] = [:]
    ) throws {
        var photoOrder: [String] = []
        var photoFaces: [String: [ReportFace]] = [:]
        var videoOrder: [String] = []
        var videoFaces: [String: [ReportFace]] = [:]
        let analysed = Set(analysedPhotos)
        for face in faces {
            if face.isVideo {
                if videoFaces[face.source] == nil { videoOrder.append(face.source) }
                videoFaces[face.source, default: []].append(face)
            } else {
                if photoFaces[face.source] == nil, !analysed.contains(face.source) { photoOrder.append(face.source) }
                photoFaces[face.source, default: []].append(face)
            }
        }
        let covered = Set(photoOrder).union(analysed)
        for face in groupFaces where !face.isVideo && !covered.contains(face.source) {
            if photoFaces[face.source] == nil { photoOrder.append(face.source) }
            photoFaces[face.source, default: []].append(face)
        }
        for source in analysedPhotos {
            photoOrder.append(source)
            if photoFaces[source] == nil { photoFaces[source] = [] }
        }
        photos = photoOrder.map { source in
            Photo(source: source, faces: photoFaces[source]!.sorted { $0.index < $1.index })
        }
        let summaryBySource = Dictionary(grouping: summaries, by: \.source)
        videos = videoOrder.map { source in
            var video = VideoTracks(source: source, faces: videoFaces[source]!, summary: summaryBySource[source] ?? [])
            for index in video.tracks.indices {
                if let descriptor = trackDescriptors[source]?[video.tracks[index].id] { video.tracks[index].descriptor = descriptor }
            }
            return video
        }
        var groupedOrder: [String] = []
        var groupedTracks: [String: Set<Int>] = [:]
        for face in groupFaces where face.isVideo && videoFaces[face.source] == nil {
            if groupedTracks[face.source] == nil { groupedOrder.append(face.source) }
            groupedTracks[face.source, default: []].insert(face.trackingID ?? face.index)
        }
        groupedVideos = groupedOrder.map { ($0, groupedTracks[$0]!.count) }
        if peopleRows != nil || !groupFaces.isEmpty {
            people = Self.people(groupFaces: groupFaces, peopleRows: peopleRows, limit: facesPerPerson)
            peopleNotes = ["As <code>facekit group</code> found them, from its tables."]
            var indexOfID: [Int: Int] = [:]
            for (index, person) in (people ?? []).enumerated() { if let id = person.id { indexOfID[id] = index } }
            for face in groupFaces {
                guard let id = face.personID, let index = indexOfID[id] else { continue }
                let key = face.isVideo
                    ? Self.key(video: face.source, track: face.trackingID ?? face.index)
                    : Self.key(photo: face.source, face: face.index)
                personOf[key] = index
            }
        } else if !photos.isEmpty || !videos.isEmpty {
            let found = try ReportPeople(photos: photos, videos: videos, limit: facesPerPerson)
            (people, personOf, peopleNotes) = (found.people, found.personOf, found.notes)
        }
    }

    /// The key of a photo's face in ``personOf``.
    static func key(photo source: String, face index: Int) -> String { "p:\(index):" + source }

    /// The key of a video's track in ``personOf``.
    static func key(video source: String, track id: Int) -> String { "v:\(id):" + source }

    /// The people of `group`'s people.csv with its faces.csv, or of faces.csv's `person_id` column alone.
    private static func people(
        groupFaces: [ReportFace], peopleRows: [ReportTable.PersonRow]?, limit: Int
    ) -> [Person] {
        func chosen(_ faces: [ReportFace]) -> [ReportFace] {
            Array(faces.sorted { $0.shotRank > $1.shotRank }.prefix(limit))
        }
        if let peopleRows {
            let byID = Dictionary(grouping: groupFaces.filter { $0.personID != nil }, by: { $0.personID! })
            return peopleRows.sorted { $0.personID < $1.personID }.map { row in
                var best = ReportFace(source: row.bestSource, frame: row.bestFrame, index: 0, box: row.bestBox)
                best.quality = row.bestQuality
                best.personID = row.personID
                return Person(
                    id: row.personID, name: row.name, faceCount: row.faces, photos: row.photos, videos: row.videos,
                    best: best, faces: chosen(byID[row.personID] ?? []))
            }
        }
        // faces.csv without people.csv: people from its person_id column.
        let byID = Dictionary(grouping: groupFaces.filter { $0.personID != nil }, by: { $0.personID! })
        return byID.keys.sorted().map { id in
            let all = byID[id]!
            return Person(
                id: id, name: all.compactMap(\.person).first, faceCount: all.count,
                photos: Set(all.filter { !$0.isVideo }.map(\.source)).count,
                videos: Set(all.filter(\.isVideo).map(\.source)).count,
                best: all.max { $0.shotRank < $1.shotRank }!, faces: chosen(all))
        }
    }
}

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
        /// `facekit group`'s number; `nil` for a name from `--known`.
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
    /// `nil` when nothing said who is who (no `group` output, no `person` column).
    var people: [Person]?
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
    /// faces.csv names is counted and listed (``groupedVideos``), without a page.
    init(
        faces: [ReportFace], groupFaces: [ReportFace], summaries: [ReportTable.TrackSummaryRow],
        peopleRows: [ReportTable.PersonRow]?, analysedPhotos: [String], facesPerPerson: Int
    ) {
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
        videos = videoOrder.map { VideoTracks(source: $0, faces: videoFaces[$0]!, summary: summaryBySource[$0] ?? []) }
        var groupedOrder: [String] = []
        var groupedTracks: [String: Set<Int>] = [:]
        for face in groupFaces where face.isVideo && videoFaces[face.source] == nil {
            if groupedTracks[face.source] == nil { groupedOrder.append(face.source) }
            groupedTracks[face.source, default: []].insert(face.trackingID ?? face.index)
        }
        groupedVideos = groupedOrder.map { ($0, groupedTracks[$0]!.count) }
        people = Self.people(
            groupFaces: groupFaces, peopleRows: peopleRows, named: faces, videos: videos, limit: facesPerPerson)
    }

    /// The people: `group`'s people.csv with its faces.csv, or else the names of `--known`.
    private static func people(
        groupFaces: [ReportFace], peopleRows: [ReportTable.PersonRow]?, named faces: [ReportFace],
        videos: [VideoTracks], limit: Int
    ) -> [Person]? {
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
        if !groupFaces.isEmpty {
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
        // --known: a photo face per row, a video track once, by its best face.
        var byName: [String: [ReportFace]] = [:]
        for face in faces where !face.isVideo {
            if let name = face.person { byName[name, default: []].append(face) }
        }
        for video in videos {
            for track in video.tracks {
                if let name = track.person, let best = track.faces.filter({ $0.person == name }).max(by: {
                    $0.shotRank < $1.shotRank
                }) {
                    byName[name, default: []].append(best)
                }
            }
        }
        guard !byName.isEmpty else { return nil }
        return byName.map { name, all in
            Person(
                id: nil, name: name, faceCount: all.count, photos: Set(all.filter { !$0.isVideo }.map(\.source)).count,
                videos: Set(all.filter(\.isVideo).map(\.source)).count, best: all.max { $0.shotRank < $1.shotRank }!,
                faces: chosen(all))
        }.sorted { ($0.faceCount, $1.title) > ($1.faceCount, $0.title) }
    }
}

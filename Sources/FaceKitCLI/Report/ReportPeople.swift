import FaceKit

/// The people of a report that no `group` table names, found here from whatever the faces
/// carry, so that every report has a People page:
///
/// - faces and tracks with a descriptor (photos and videos the report analysed itself, JSON Lines
///   written with `--descriptors`) are grouped as `facekit group` groups them
///   (``FaceClustering`` at its threshold, faces that cannot be one person kept apart, then
///   ``VideoPersonJoining``), a video track counting once with the mean descriptor of its best shots;
/// - the others with a `--known` name are one person per name;
/// - a track with neither is a person of its own (a track is one person by construction);
/// - a photo face with neither is in no person, and the page says why and what to give instead.
///
/// ```swift
/// let found = try ReportPeople(photos: collection.photos, videos: collection.videos, limit: 24)
/// found.people.count   // the people, most faces first
/// found.notes          // how they were found, what was left out (HTML)
/// ```
struct ReportPeople {
    var people: [ReportCollection.Person] = []
    /// Each photo face's and track's person, an index of ``people``, by ``ReportCollection/key(photo:face:)``
    /// and ``ReportCollection/key(video:track:)``.
    var personOf: [String: Int] = [:]
    /// What the People page says about how its people were found and what is not in them (HTML).
    var notes: [String] = []

    /// A photo face or a video track: what counts once in a person.
    private struct Member {
        var key: String
        /// The face shown for it: the photo face, or the track's best shot.
        var face: ReportFace
        var descriptor: FaceDescriptor?
        var name: String?
        var firstFrame: Int?
        var lastFrame: Int?
    }

    init(photos: [ReportCollection.Photo], videos: [VideoTracks], limit: Int) throws {
        var members: [Member] = []
        for photo in photos {
            for face in photo.faces {
                members.append(
                    Member(
                        key: ReportCollection.key(photo: photo.source, face: face.index), face: face,
                        descriptor: face.descriptor, name: face.person))
            }
        }
        for video in videos {
            for track in video.tracks {
                guard let best = track.best else { continue }
                members.append(
                    Member(
                        key: ReportCollection.key(video: video.source, track: track.id), face: best,
                        descriptor: track.descriptor, name: track.person, firstFrame: track.faces.first?.frame,
                        lastFrame: track.faces.last?.frame))
            }
        }
        var group = [String?](repeating: nil, count: members.count)
        let described = members.indices.filter { members[$0].descriptor != nil }
        if !described.isEmpty {
            let grouped = described.map { index -> GroupedFace in
                let member = members[index]
                var face = member.face.face
                face.descriptor = member.descriptor
                return GroupedFace(
                    record: FaceRecord(
                        source: member.face.source, frame: member.face.frame,
                        timestampMilliseconds: member.face.timestampMs, index: member.face.index, face: face),
                    firstFrame: member.firstFrame, lastFrame: member.lastFrame)
            }
            ProcessBLAS.configureForClustering()
            let clustered = try GroupCommand.people(of: grouped, clustering: FaceClustering())
            let joined = VideoPersonJoining().join(grouped, people: clustered.people, count: clustered.count)
            for (position, index) in described.enumerated() {
                if let person = joined.people[position] { group[index] = "c\(person)" }
            }
        }
        for index in members.indices where group[index] == nil {
            if let name = members[index].name {
                group[index] = "n:" + name
            } else if members[index].face.isVideo {
                group[index] = "t:" + members[index].key
            }
        }
        var firstSeen: [String: Int] = [:]
        var byGroup: [String: [Int]] = [:]
        for (index, key) in group.enumerated() {
            guard let key else { continue }
            if firstSeen[key] == nil { firstSeen[key] = firstSeen.count }
            byGroup[key, default: []].append(index)
        }
        // As group numbers people: most faces first, among equals the one seen first.
        let ranked = byGroup.keys.sorted { (byGroup[$0]!.count, firstSeen[$1]!) > (byGroup[$1]!.count, firstSeen[$0]!) }
        for (number, key) in ranked.enumerated() {
            let all = byGroup[key]!.map { members[$0] }
            let faces = all.map(\.face)
            people.append(
                ReportCollection.Person(
                    id: key.hasPrefix("n:") ? nil : number, name: Self.mostCommon(all.compactMap(\.name)),
                    faceCount: all.count, photos: Set(faces.filter { !$0.isVideo }.map(\.source)).count,
                    videos: Set(faces.filter(\.isVideo).map(\.source)).count,
                    best: faces.max { $0.shotRank < $1.shotRank }!,
                    faces: Array(faces.sorted { $0.shotRank > $1.shotRank }.prefix(limit))))
            for member in all { personOf[member.key] = number }
        }
        notes = Self.notes(
            members: members.indices.map { (members[$0], group[$0]) }, described: described.map { members[$0] })
    }

    /// The name given most often, the first given among equals.
    private static func mostCommon(_ names: [String]) -> String? {
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return names.first { counts[$0] == counts.values.max() }
    }

    private static func notes(members: [(Member, String?)], described: [Member]) -> [String] {
        guard !members.isEmpty else { return ["No faces were found, so there is no one to show."] }
        var notes: [String] = []
        func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        if !described.isEmpty {
            let photoFaces = described.filter { !$0.face.isVideo }.count, tracks = described.count - photoFaces
            notes.append(
                "Grouped by this report from the faces' descriptors, as <code>facekit group</code> groups them: "
                    + count(photoFaces, "face of photos", "faces of photos") + " and "
                    + count(tracks, "video track", "video tracks")
                    + ", a track counting once, by its best face. A person seen only in video joins the person of the "
                    + "photos whose faces are nearest, when no other is as near.")
        }
        let named = members.filter { $0.1?.hasPrefix("n:") == true }.count
        if named > 0 {
            notes.append(
                count(named, "face or track", "faces and tracks")
                    + " without a descriptor are grouped by their <code>--known</code> name.")
        }
        let alone = members.filter { $0.1?.hasPrefix("t:") == true }.count
        if alone > 0 {
            notes.append(
                count(alone, "video track has", "video tracks have")
                    + " no descriptor, so each is a person of its own here (the tracks' tables hold none). To join one "
                    + "person's tracks across cuts, videos and photos, give report the video itself (it describes each "
                    + "track's best shots), the JSON Lines of <code>facekit track --descriptors --format jsonl</code>, "
                    + "or <code>facekit group</code>'s faces.csv and people.csv.")
        }
        let left = members.filter { $0.1 == nil }.count
        if left > 0 {
            notes.append(
                count(left, "face of photos is", "faces of photos are")
                    + " in no person: they have no descriptor and no <code>--known</code> name (analyze's CSV holds "
                    + "no descriptors; a face found here gets none when its 68 points are implausible). To group "
                    + "a table's faces, give report the photos themselves (it describes their faces), the JSON Lines "
                    + "of <code>facekit analyze --descriptors --format jsonl</code>, or <code>facekit group</code>'s "
                    + "faces.csv and people.csv; or name them with <code>--known</code>.")
        }
        return notes
    }
}

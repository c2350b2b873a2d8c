extension FaceClustering {
    /// Groups the faces of the photo files in `paths` into people: each photo is analysed by
    /// `detector`, which must compute descriptors (`descriptorMode = .all`), and the faces with a
    /// descriptor are clustered (``cluster(_:apart:)``), two faces of one photo kept apart (they
    /// are never joined directly). What `facekit group` does with photos.
    ///
    /// Runs off the caller's thread: the photos are analysed one at a time on a queue of the
    /// call's own (``FaceDetector/photos(ofContentsOfFiles:maxPixels:)``), then clustered on it.
    /// Cancelling the calling task stops it before the next photo (or before clustering) with
    /// `CancellationError`. A photo that cannot be read or analysed is listed in
    /// ``PhotoPeople/failures`` and the others are grouped.
    ///
    /// - Throws: `CancellationError`, or ``FaceKitError/invalidOption(name:reason:)`` when the
    ///   detector computes no descriptors or the clustering's settings are invalid.
    ///
    /// ```swift
    /// var options = FaceDetectorOptions()
    /// options.descriptorMode = .all
    /// let grouped = try await FaceClustering().people(inPhotos: paths, detector: FaceDetector(options: options))
    /// for (person, faces) in grouped.people.enumerated() {
    ///     print(person, faces.map(\.path))   // 0 ["obama.jpg", "obama2.jpg"] ...
    /// }
    /// ```
    public func people(inPhotos paths: [String], detector: FaceDetector) async throws -> PhotoPeople {
        guard detector.options.descriptorMode == .all else {
            throw FaceKitError.invalidOption(
                name: "descriptorMode", reason: "grouping needs descriptors: make the detector with descriptorMode = .all")
        }
        try validate()
        var faces: [PhotoPeople.PhotoFace] = []
        var failures: [DetectedPhoto] = []
        for await photo in detector.photos(ofContentsOfFiles: paths) {
            switch photo.result {
            case .success(let found):
                for (index, face) in found.enumerated() {
                    faces.append(PhotoPeople.PhotoFace(path: photo.path, index: index, face: face, person: nil))
                }
            case .failure: failures.append(photo)
            }
        }
        try Task.checkCancellation()
        let described = faces.indices.filter { faces[$0].face.descriptor != nil }
        var values: [Float] = []
        values.reserveCapacity(described.count * FaceDescriptor.length)
        for index in described { values += faces[index].face.descriptor!.values }
        let flat = values
        let clustering = self
        let photoOf = described.map { faces[$0].path }
        let found = try await OffThreadWork.run(label: "FaceKit.FaceClustering.people") { _ in
            Result { () throws(FaceKitError) in
                try clustering.cluster(flat: flat, dimension: FaceDescriptor.length) { a, b in photoOf[a] == photoOf[b] }
            }
        }.get()
        try Task.checkCancellation()
        for (position, index) in described.enumerated() { faces[index].person = found.labels[position] }
        return PhotoPeople(faces: faces, count: found.count, failures: failures)
    }

    /// The faces of a set of photos, each with its person (``people(inPhotos:detector:)``).
    public struct PhotoPeople: Sendable {
        /// One face of one photo.
        public struct PhotoFace: Sendable {
            /// The photo's path, as given.
            public var path: String
            /// The face's place among its photo's faces (0 is the leftmost).
            public var index: Int
            public var face: Face
            /// The face's person: 0 is the person with the most faces. `nil` for a face with no
            /// descriptor (its landmarks implausible), which is in no person.
            public var person: Int?
        }

        /// Every face found, in the order of the photos, then of their faces.
        public let faces: [PhotoFace]
        /// The number of people (a person seen once included).
        public let count: Int
        /// The photos that could not be read or analysed, with their errors.
        public let failures: [DetectedPhoto]

        /// Each person's faces, person 0 (the one with the most faces) first.
        public var people: [[PhotoFace]] {
            var people = [[PhotoFace]](repeating: [], count: count)
            for face in faces { if let person = face.person { people[person].append(face) } }
            return people
        }
    }
}

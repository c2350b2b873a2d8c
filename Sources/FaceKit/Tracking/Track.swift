import Foundation

/// One followed face: where it was last seen and how fast it was moving.
///
/// Motion is constant velocity in pixels per millisecond, measured from the timestamps rather
/// than frame counts, so skipped frames (`--every N`) and variable frame rates predict correctly.
struct Track: Sendable, Equatable {
    let id: Int
    /// The box of the last detection matched to this track.
    private(set) var lastBox: CGRect
    private(set) var lastTimestampMs: Double
    /// Centre velocity in pixels per millisecond; zero until the face was seen twice.
    private(set) var velocity = Velocity(dx: 0, dy: 0)
    /// Analysed frames since the last match.
    private(set) var missedFrames = 0
    /// Analysed frames in which the face was matched.
    private(set) var framesSeen = 1
    /// Face descriptors taken from this track's detections, oldest first (empty without
    /// re-identification); some may still be computing (``DescriptorWorker``).
    private(set) var descriptors: [PendingDescriptor] = []
    /// Frames matched to a detection since the newest descriptor was added.
    private(set) var framesSinceDescriptor = 0
    /// Whether the shot this track was seen in has ended (a cut): it can come back by its
    /// descriptors only.
    private(set) var shotEnded = false

    init(id: Int, box: CGRect, timestampMs: Double) {
        self.id = id
        lastBox = box
        lastTimestampMs = timestampMs
    }

    /// The last box moved along the velocity to `timestampMs`.
    func predictedBox(at timestampMs: Double) -> CGRect {
        let elapsed = max(0, timestampMs - lastTimestampMs)
        return lastBox.offsetBy(dx: CGFloat(velocity.dx * elapsed), dy: CGFloat(velocity.dy * elapsed))
    }

    /// How well `box` continues this track: the overlap with the predicted box, or with the last
    /// seen box when the face stopped while hidden (a prediction that ran on past it).
    func overlap(with box: CGRect, at timestampMs: Double) -> Double {
        max(BoxOverlap.intersectionOverUnion(predictedBox(at: timestampMs), box),
            BoxOverlap.intersectionOverUnion(lastBox, box))
    }

    /// How well `box` continues this track when it does not overlap the prediction: positive when
    /// its centre lies within an allowance of the predicted centre or of the last seen one (half
    /// the track's width, plus a twentieth of it per frame missed, at most twice the width) and
    /// its size is within 1.5 times the track's, higher the closer; negative otherwise.
    func reacquisitionScore(for box: CGRect, at timestampMs: Double) -> Double {
        let predicted = predictedBox(at: timestampMs)
        let width = Double(lastBox.width)
        guard width > 0, box.width > 0 else { return -1 }
        let ratio = Double(box.width) / width
        guard ratio >= 1 / 1.5, ratio <= 1.5 else { return -1 }
        let centre = CGPoint(x: box.midX, y: box.midY)
        let distance = min(
            centre.distance(to: CGPoint(x: predicted.midX, y: predicted.midY)),
            centre.distance(to: CGPoint(x: lastBox.midX, y: lastBox.midY)))
        let allowance = width * min(2, 0.5 + 0.05 * Double(missedFrames))
        return 1 - distance / allowance
    }

    /// Records a match, updating the smoothed velocity. `detected` is false for a face followed
    /// without a detection, which does not count toward the next descriptor refresh (only
    /// detections are asked for descriptors).
    mutating func observe(_ box: CGRect, at timestampMs: Double, smoothing: Double, detected: Bool = true) {
        let elapsed = timestampMs - lastTimestampMs
        if elapsed > 0 {
            let measured = Velocity(
                dx: Double(box.midX - lastBox.midX) / elapsed, dy: Double(box.midY - lastBox.midY) / elapsed)
            let weight = framesSeen == 1 ? 1 : smoothing
            velocity = Velocity(
                dx: weight * measured.dx + (1 - weight) * velocity.dx,
                dy: weight * measured.dy + (1 - weight) * velocity.dy)
        }
        lastBox = box
        lastTimestampMs = timestampMs
        missedFrames = 0
        framesSeen += 1
        if detected { framesSinceDescriptor += 1 }
    }

    /// Records an analysed frame in which the face was not found.
    mutating func miss() { missedFrames += 1 }

    /// Records a detection found by appearance rather than overlap: the face jumped (re-entry,
    /// a long gap), so the motion measured before is dropped.
    /// Marks the track as belonging to a shot that has ended.
    mutating func endShot() { shotEnded = true }

    mutating func reappear(_ box: CGRect, at timestampMs: Double) {
        shotEnded = false
        velocity = Velocity(dx: 0, dy: 0)
        lastBox = box
        lastTimestampMs = timestampMs
        missedFrames = 0
        framesSeen += 1
        framesSinceDescriptor += 1
    }

    /// Whether the track wants a fresh descriptor from the detection it is being matched to now:
    /// it has none, or that detection is the `refreshFrames`th matched one since the newest.
    func needsDescriptor(refreshFrames: Int) -> Bool {
        descriptors.isEmpty || framesSinceDescriptor + 1 >= refreshFrames
    }

    /// Adds a descriptor, keeping at most `limit` (the oldest go first).
    mutating func addDescriptor(_ descriptor: PendingDescriptor, limit: Int) {
        descriptors.append(descriptor)
        if descriptors.count > max(1, limit) { descriptors.removeFirst(descriptors.count - max(1, limit)) }
        framesSinceDescriptor = 0
    }

    /// The smallest Euclidean distance between `descriptor` and this track's descriptors;
    /// `nil` when it has none. Waits for descriptors still computing.
    func distance(to descriptor: PendingDescriptor) -> Double? {
        guard let values = descriptor.value else { return nil }
        return descriptors.compactMap(\.value).map { FaceDescriptor.distance($0, values) }.min()
    }
}

/// Distances between face descriptors.
enum FaceDescriptorDistance {
    /// Beyond this distance two descriptors are taken as different people even when motion says
    /// otherwise. dlib's threshold for "the same person" is 0.6, for whole frontal faces; a face
    /// half covered or turned reads further from its own frontal descriptors (0.60 for the
    /// astronaut emerging from behind her twin in TestVideos/crossing.mp4), so motion is given
    /// some benefit of the doubt.
    static let notSamePerson = 0.7
}

/// A centre's motion in pixels per millisecond (Foundation on Linux has no `CGVector`).
struct Velocity: Sendable, Equatable {
    var dx: Double
    var dy: Double
}

import CFaceKit
import CFaceKitTools
import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// The differential suite: each kernel FaceKit has its own native code for, against the library
/// call it replaces (CFaceKit.h, "Kernels and their references"), on the same real inputs (the
/// fixture photo, frames of TestVideos/, and with the development data its photos), within a
/// stated tolerance rather than to the bit, so that it holds across library versions and
/// architectures. scripts/test-sanitizers runs it under AddressSanitizer and
/// UndefinedBehaviorSanitizer.
@Suite("Kernels against their libraries' code")
struct ReferencePathTests {
    static let fast = Int32(FK_PATH_FAST.rawValue)
    static let reference = Int32(FK_PATH_REFERENCE.rawValue)

    // MARK: Inputs

    /// A decoded image and what it is, for messages.
    final class Picture {
        let name: String
        let handle: OpaquePointer
        let width: Int32, height: Int32
        init(name: String, handle: OpaquePointer) {
            self.name = name
            self.handle = handle
            var w: Int32 = 0, h: Int32 = 0
            _ = fk_image_get_size(handle, &w, &h, nil)
            (width, height) = (w, h)
        }
        deinit { fk_image_free(handle) }
    }

    /// The development data's photos the suite reads (when it is present): dlib's example photos
    /// (groups, small and turned faces) and face_recognition's (one face each, up to 1080p).
    static func sharedPhotoPaths() -> [String] {
        guard TestData.hasSharedData else { return [] }
        var paths: [String] = []
        for folder in ["photos/dlib-faces", "photos/face_recognition"] {
            let directory = TestData.shared(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".jpg") || name.hasSuffix(".png") {
                paths.append(directory + "/" + name)
            }
        }
        return paths
    }

    /// The fixture photo, every third frame of the first 30 of two TestVideos clips, and the
    /// development data's photos.
    static func pictures() throws -> [Picture] {
        var pictures: [Picture] = []
        for path in [NativeInputs.photo] + sharedPhotoPaths() {
            var image: OpaquePointer?
            let call = NativeCall { fk_image_create_from_file(path, 0, &image, $0) }
            try #require(call.status == FK_OK.code, "\(path): \(call.message)")
            pictures.append(Picture(name: (path as NSString).lastPathComponent, handle: image!))
        }
        for clip in ["crossing.mp4", "leave-reenter.mp4"] {
            for (index, frame) in try frames(of: clip, count: 30).enumerated() where index % 3 == 0 {
                pictures.append(Picture(name: "\(clip) frame \(index)", handle: frame))
            }
        }
        return pictures
    }

    /// The first `count` frames of a TestVideos clip (fewer when it is shorter).
    static func frames(of clip: String, count: Int) throws -> [OpaquePointer] {
        let path = TestData.repository.appendingPathComponent("TestVideos/\(clip)").path
        var video: OpaquePointer?
        let opened = NativeCall { fk_video_open(path, 0, &video, $0) }
        try #require(opened.status == FK_OK.code, "\(clip): \(opened.message)")
        defer { fk_video_free(video) }
        var frames: [OpaquePointer] = []
        while frames.count < count {
            var image: OpaquePointer?
            var index: Int64 = 0, timestamp = 0.0, ended: Int32 = 0
            let read = NativeCall { fk_video_next(video, 1, &image, &index, &timestamp, &ended, $0) }
            try #require(read.status == FK_OK.code, "\(clip): \(read.message)")
            if ended != 0 { break }
            frames.append(image!)
        }
        return frames
    }

    // MARK: YuNet

    static func yunet(path: Int32) throws -> OpaquePointer {
        var yunet: OpaquePointer?
        let created = NativeCall { fk_yunet_create_on_path(NativeInputs.yunet, path, &yunet, $0) }
        try #require(created.status == FK_OK.code, "\(created.message)")
        return yunet!
    }

    static func detect(_ yunet: OpaquePointer, _ picture: Picture, scale: Float, mirrored: Int32 = 0,
                       turns: Int32 = 0, minScore: Float) throws -> [fk_yunet_face] {
        var found = [fk_yunet_face](repeating: fk_yunet_face(), count: 64)
        var count: Int32 = 0
        let region = fk_rect(x: 0, y: 0, width: Float(picture.width), height: Float(picture.height))
        let ran = NativeCall {
            fk_yunet_detect(yunet, picture.handle, region, scale, mirrored, turns, minScore, 0.3, &found, 64, &count, $0)
        }
        try #require(ran.status == FK_OK.code, "\(picture.name): \(ran.message)")
        return Array(found.prefix(Int(min(count, 64))))
    }

    static func overlap(_ a: fk_rect, _ b: fk_rect) -> Float {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        return w * h / (a.width * a.height + b.width * b.height - w * h)
    }

    /// How far apart two faces are: the largest difference of a box edge or a keypoint coordinate
    /// in pixels, and of the score.
    static func apart(_ a: fk_yunet_face, _ b: fk_yunet_face) -> (pixels: Float, score: Float) {
        var pixels = [a.box.x - b.box.x, a.box.y - b.box.y, a.box.width - b.box.width, a.box.height - b.box.height]
            .map(abs).max()!
        withUnsafeBytes(of: a.keypoints) { ka in
            withUnsafeBytes(of: b.keypoints) { kb in
                let pa = ka.bindMemory(to: Float.self), pb = kb.bindMemory(to: Float.self)
                for i in 0..<pa.count { pixels = max(pixels, abs(pa[i] - pb[i])) }
            }
        }
        return (pixels, abs(a.score - b.score))
    }

    /// Tolerances: a box edge or keypoint within 0.05 px, a score within 0.001 (the two sum in
    /// different orders: the largest differences seen are about a hundred times smaller). A face
    /// scoring within 0.01 of the minimum may be found by one and not the other.
    static let yunetPixelTolerance: Float = 0.05
    static let yunetScoreTolerance: Float = 0.001

    @Test("YuNet's runner finds OpenCV's DNN module's faces: boxes and keypoints within 0.05 px, scores within 0.001")
    func yunetAgreesWithOpenCV() throws {
        let ours = try Self.yunet(path: Self.fast), theirs = try Self.yunet(path: Self.reference)
        defer { fk_yunet_free(ours); fk_yunet_free(theirs) }
        let minScore: Float = 0.5
        var matched = 0, worstPixels: Float = 0, worstScore: Float = 0
        let pictures = try Self.pictures()
        for (number, picture) in pictures.enumerated() {
            // The whole picture at most 640 px wide; the fixture also mirrored and turned.
            let scale = min(1, 640 / Float(max(picture.width, picture.height)))
            var passes: [(Int32, Int32)] = [(0, 0)]
            if number == 0 { passes += [(1, 0), (0, 1), (1, 3)] }
            for (mirrored, turns) in passes {
                let a = try Self.detect(ours, picture, scale: scale, mirrored: mirrored, turns: turns, minScore: minScore)
                let b = try Self.detect(theirs, picture, scale: scale, mirrored: mirrored, turns: turns, minScore: minScore)
                for (one, other, side) in [(a, b, "FaceKit's"), (b, a, "OpenCV's")] {
                    for face in one where face.score >= minScore + 0.01 {
                        let partner = other.max { Self.overlap($0.box, face.box) < Self.overlap($1.box, face.box) }
                        guard let partner, Self.overlap(partner.box, face.box) > 0.9 else {
                            Issue.record("\(picture.name) (mirrored \(mirrored), turns \(turns)): \(side) face \(face.box) score \(face.score) has no partner")
                            continue
                        }
                        let (pixels, score) = Self.apart(face, partner)
                        worstPixels = max(worstPixels, pixels)
                        worstScore = max(worstScore, score)
                        #expect(pixels <= Self.yunetPixelTolerance && score <= Self.yunetScoreTolerance,
                                "\(picture.name): \(pixels) px, score \(score) apart")
                        matched += 1
                    }
                }
            }
        }
        print("YuNet, runner against OpenCV's DNN: \(matched / 2) faces in \(pictures.count) pictures, "
              + "at most \(worstPixels) px and \(worstScore) in score apart")
        #expect(matched >= 2 * (TestData.hasSharedData ? 30 : 3), "too few faces to compare: \(matched / 2)")
    }

    // MARK: Point flow

    /// Tolerance: where both follow a point, the positions and forward-backward errors within
    /// 0.01 px; at most 0.5% of the points followed by one and lost by the other (a point on the
    /// edge of the minimum eigenvalue threshold). On x86-64 with OpenCV 4.6 the two give the same
    /// bits (PointFlowTests demands that there).
    @Test("FaceKit's flow follows points as OpenCV's calcOpticalFlowPyrLK does, within 0.01 px",
          arguments: [("crossing.mp4", Int32(1)), ("leave-reenter.mp4", Int32(1)), ("crossing-rotated.mp4", Int32(2))])
    func flowAgreesWithOpenCV(clip: String, reduction: Int32) throws {
        var ours: OpaquePointer?, theirs: OpaquePointer?
        try #require(fk_point_tracker_create_on_path(15, 3, Self.fast, &ours, nil) == FK_OK.code)
        try #require(fk_point_tracker_create_on_path(15, 3, Self.reference, &theirs, nil) == FK_OK.code)
        defer { fk_point_tracker_free(ours); fk_point_tracker_free(theirs) }
        let frames = try Self.frames(of: clip, count: 10)
        defer { frames.forEach { fk_image_free($0) } }
        var followed = 0, disagreements = 0, total = 0, worst: Float = 0, sameAsTools = true
        for (index, frame) in frames.enumerated() {
            try #require(fk_point_tracker_push_frame(ours, frame, reduction, nil) == FK_OK.code)
            try #require(fk_point_tracker_push_frame(theirs, frame, reduction, nil) == FK_OK.code)
            if index == 0 { continue }
            var width: Int32 = 0, height: Int32 = 0
            _ = fk_image_get_size(frame, &width, &height, nil)
            var points: [fk_point] = []
            for y in stride(from: -10, through: Int(height) + 10, by: 23) {
                for x in stride(from: -10, through: Int(width) + 10, by: 29) {
                    points.append(fk_point(x: Float(x) + 0.37, y: Float(y) + 0.61))
                }
            }
            let n = Int32(points.count)
            var a = [fk_point](repeating: fk_point(), count: points.count), b = a, tools = a
            var aError = [Float](repeating: 0, count: points.count), bError = aError, toolsError = aError
            try #require(fk_point_tracker_follow(ours, points, n, &a, &aError, nil) == FK_OK.code)
            try #require(fk_point_tracker_follow(theirs, points, n, &b, &bError, nil) == FK_OK.code)
            // The reference tracker runs OpenCV's own call: the tools' reference gives its bits.
            try #require(fk_opencv_point_tracker_follow(ours, points, n, &tools, &toolsError, nil) == FK_OK.code)
            for i in points.indices {
                total += 1
                if b[i].x.bitPattern != tools[i].x.bitPattern || bError[i].bitPattern != toolsError[i].bitPattern {
                    sameAsTools = false
                }
                if (aError[i] < 0) != (bError[i] < 0) {
                    disagreements += 1
                } else if aError[i] >= 0 {
                    followed += 1
                    worst = max(worst, abs(a[i].x - b[i].x), abs(a[i].y - b[i].y), abs(aError[i] - bError[i]))
                }
            }
        }
        #expect(sameAsTools, "the reference tracker does not run OpenCV's calcOpticalFlowPyrLK")
        #expect(worst <= 0.01, "\(clip): points followed by both up to \(worst) px apart")
        #expect(Double(disagreements) <= 0.005 * Double(total), "\(clip): \(disagreements) of \(total) followed by one only")
        #expect(followed > 500, "\(clip): too few points followed to compare: \(followed)")
    }

    // MARK: 68 points, head pose, face descriptor

    /// The 68 points each shape predictor places in each face YuNet finds in the pictures.
    static func shapes(path: Int32, faces: [(Picture, fk_rect)]) throws -> [[fk_point]] {
        var predictor: OpaquePointer?
        let created = NativeCall { fk_shape_predictor_create_on_path(NativeInputs.landmarks68, nil, path, &predictor, $0) }
        try #require(created.status == FK_OK.code, "\(created.message)")
        defer { fk_shape_predictor_free(predictor) }
        var count: Int32 = 0
        try #require(fk_shape_predictor_point_count(predictor, &count, nil) == FK_OK.code && count == 68)
        return try faces.map { picture, box in
            var points = [fk_point](repeating: fk_point(), count: 68)
            var boxes = [box]
            let placed = NativeCall { fk_shape_predictor_predict(predictor, picture.handle, &boxes, 1, &points, 68, $0) }
            try #require(placed.status == FK_OK.code, "\(picture.name): \(placed.message)")
            return points
        }
    }

    /// Every face YuNet finds at 0.6 or more in the pictures, with its box made square around its
    /// centre (as LandmarkSeed makes the 68-point model's box, roughly).
    static func faces(in pictures: [Picture]) throws -> [(Picture, fk_rect)] {
        let yunet = try yunet(path: fast)
        defer { fk_yunet_free(yunet) }
        var faces: [(Picture, fk_rect)] = []
        for picture in pictures {
            let scale = min(1, 640 / Float(max(picture.width, picture.height)))
            for face in try detect(yunet, picture, scale: scale, minScore: 0.6) {
                let side = max(face.box.width, face.box.height)
                let box = fk_rect(x: face.box.x + face.box.width / 2 - side / 2,
                                  y: face.box.y + face.box.height / 2 - side / 2 + 0.1 * side,
                                  width: side, height: side)
                faces.append((picture, box))
            }
        }
        return faces
    }

    /// Tolerance: each point within 1 px of dlib's (dlib rounds every point to a whole pixel, so a
    /// sum that differs in its last bit can move one by a pixel), at most 1% of them moved at all.
    /// On x86-64 FaceKit's trees give dlib's points exactly.
    @Test("FaceKit's flat trees place dlib's shape_predictor's 68 points: each within 1 px, 99% the same", .needsModels)
    func landmarksAgreeWithDlib() throws {
        let pictures = try Self.pictures()
        let faces = try Self.faces(in: pictures)
        let ours = try Self.shapes(path: Self.fast, faces: faces)
        let theirs = try Self.shapes(path: Self.reference, faces: faces)
        var moved = 0, worst: Float = 0
        for (index, (a, b)) in zip(ours, theirs).enumerated() {
            for (p, q) in zip(a, b) where p.x != q.x || p.y != q.y {
                moved += 1
                worst = max(worst, abs(p.x - q.x), abs(p.y - q.y))
                if worst > 1 { Issue.record("\(faces[index].0.name): a point \(worst) px from dlib's"); break }
            }
        }
        #expect(Double(moved) <= 0.01 * Double(68 * faces.count), "\(moved) of \(68 * faces.count) points moved")
        #expect(faces.count >= (TestData.hasSharedData ? 30 : 3), "too few faces to compare: \(faces.count)")
    }

    /// Tolerance: the two rotations within 0.01 degrees of each other (the refinement stops where
    /// a step changes the fit by less than its epsilon: the same steps, summed in another order).
    @Test("FaceKit's pose refinement turns the mean face as cv::solvePnP does, within 0.01 degrees", .needsModels)
    func poseAgreesWithOpenCV() throws {
        let pictures = try Self.pictures()
        let faces = try Self.faces(in: pictures)
        let shapes = try Self.shapes(path: Self.fast, faces: faces)
        let model = MeanFace.points.sorted { $0.dlibIndex < $1.dlibIndex }.flatMap { [$0.x, $0.y, $0.z] }
        try #require(model.count == 68 * 3)
        var worst = 0.0, solved = 0
        for ((picture, _), shape) in zip(faces, shapes) {
            let focalLength = MeanFace.focalLengthInImageWidths * Double(picture.width)
            var a = fk_pose(), b = fk_pose()
            let first = fk_solve_pose_on_path(model, shape, 68, picture.width, picture.height, focalLength, Self.fast, &a, nil)
            let second = fk_solve_pose_on_path(
                model, shape, 68, picture.width, picture.height, focalLength, Self.reference, &b, nil)
            #expect(first == second, "\(picture.name): one path found a pose, the other did not")
            guard first == FK_OK.code, second == FK_OK.code else { continue }
            let ra = withUnsafeBytes(of: a.rotation) { Array($0.bindMemory(to: Double.self)) }
            let rb = withUnsafeBytes(of: b.rotation) { Array($0.bindMemory(to: Double.self)) }
            // The angle of ra * rb^T.
            var trace = 0.0
            for row in 0..<3 { for k in 0..<3 { trace += ra[3 * row + k] * rb[3 * row + k] } }
            let degrees = acos(max(-1, min(1, (trace - 1) / 2))) * 180 / .pi
            worst = max(worst, degrees)
            #expect(degrees <= 0.01, "\(picture.name): the two poses \(degrees) degrees apart")
            solved += 1
        }
        print("Head pose, refinement against cv::solvePnP: \(solved) faces, at most \(worst) degrees apart")
        #expect(solved >= (TestData.hasSharedData ? 30 : 3), "too few poses to compare: \(solved)")
    }

    /// Tolerance: descriptors within 1e-4 of each other (Euclidean; same people are within 0.6).
    /// The same bits at one BLAS thread (NativeFaceDescriptorTests); OpenBLAS sums a product
    /// differently at other thread counts, which other tests may set while this one runs.
    @Test("descriptor_conv.hpp's convolutions describe faces as dlib's own con_ layer does, within 1e-4", .needsModels)
    func descriptorAgreesWithDlib() throws {
        let pictures = try Self.pictures()
        let faces = try Self.faces(in: pictures)
        let shapes = try Self.shapes(path: Self.fast, faces: faces)
        var ours: OpaquePointer?, theirs: OpaquePointer?
        let created = NativeCall { fk_face_descriptor_create_on_path(NativeInputs.faceDescriptor, Self.fast, &ours, $0) }
        try #require(created.status == FK_OK.code, "\(created.message)")
        try #require(fk_face_descriptor_create_on_path(NativeInputs.faceDescriptor, Self.reference, &theirs, nil) == FK_OK.code)
        defer { fk_face_descriptor_free(ours); fk_face_descriptor_free(theirs) }
        // A copy keeps its path: the reference's copy gives the reference's values.
        var copy: OpaquePointer?
        try #require(fk_face_descriptor_copy(theirs, &copy, nil) == FK_OK.code)
        defer { fk_face_descriptor_free(copy) }
        var worst: Float = 0, described = 0
        // A dozen faces: each ResNet pass through dlib's own layer takes about 0.1 s (more under a sanitizer).
        for ((picture, _), shape) in zip(faces, shapes).prefix(12) {
            var a = [Float](repeating: 0, count: Int(FK_FACE_DESCRIPTOR_LENGTH)), b = a, c = a
            try #require(fk_face_descriptor_compute(ours, picture.handle, shape, 68, &a, nil) == FK_OK.code)
            try #require(fk_face_descriptor_compute(theirs, picture.handle, shape, 68, &b, nil) == FK_OK.code)
            try #require(fk_face_descriptor_compute(copy, picture.handle, shape, 68, &c, nil) == FK_OK.code)
            let distance = sqrt(zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
            let copyDistance = sqrt(zip(c, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
            worst = max(worst, distance)
            #expect(distance <= 1e-4 && copyDistance <= 1e-4, "\(picture.name): \(distance) apart")
            described += 1
        }
        print("Face descriptor, descriptor_conv against dlib's con_: \(described) faces, at most \(worst) apart")
        #expect(described >= 3, "too few faces to compare: \(described)")
    }

    // MARK: Decoding

    /// FaceKit reads JPEG and PNG with libjpeg and libpng directly (quiet failures, DCT scaling),
    /// where OpenCV's imdecode calls the same libraries. Tolerance: every channel of every pixel
    /// within 2 grey levels of OpenCV's, at most 0.1% of them different at all (the same libjpeg
    /// gives the same bytes); a 16-bit PNG's samples within 1 (libpng's simplified reading rounds
    /// them to 8 bits, OpenCV's `png_set_strip_16` truncates: about 40% differ by 1).
    @Test("FaceKit's JPEG and PNG decoding gives OpenCV's imdecode's pixels, full size and DCT-reduced")
    func decodingAgreesWithOpenCV() throws {
        let paths = [NativeInputs.photo] + Self.sharedPhotoPaths()
            + ["astronaut.jpg", "astronaut-portrait-exif6.jpg", "astronaut-3072x1536.jpg", "astronaut-gray.png",
               "astronaut-rgba.png", "astronaut-portrait.png", "astronaut-16bit.png"].map { TestData.fixture($0) }
        var compared = 0, reducedCompared = 0
        for path in paths {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            var ours: OpaquePointer?, theirs: OpaquePointer?
            let decoded = NativeCall { fk_image_create_from_encoded(bytes, bytes.count, 0, &ours, $0) }
            try #require(decoded.status == FK_OK.code, "\(path): \(decoded.message)")
            defer { fk_image_free(ours) }
            let reference = NativeCall { fk_opencv_image_decode(bytes, bytes.count, 1, &theirs, $0) }
            try #require(reference.status == FK_OK.code, "\(path): \(reference.message)")
            defer { fk_image_free(theirs) }
            try Self.expectSamePixels(ours!, theirs!, name: path, roundedFrom16Bits: path.hasSuffix("16bit.png"))
            compared += 1
            // A JPEG at least 1,200 px wide is read at an eighth, as a search for large faces
            // would read it.
            guard path.hasSuffix(".jpg") else { continue }
            var reduced: OpaquePointer?, reduction: Int32 = 0
            let read = NativeCall { fk_image_create_from_file_reduced(path, 0, 150, &reduced, &reduction, $0) }
            try #require(read.status == FK_OK.code, "\(path): \(read.message)")
            defer { fk_image_free(reduced) }
            guard reduction > 1 else { continue }
            var theirsReduced: OpaquePointer?
            let referenceReduced = NativeCall {
                fk_opencv_image_decode(bytes, bytes.count, reduction, &theirsReduced, $0)
            }
            try #require(referenceReduced.status == FK_OK.code, "\(path): \(referenceReduced.message)")
            defer { fk_image_free(theirsReduced) }
            try Self.expectSamePixels(reduced!, theirsReduced!, name: "\(path) at 1/\(reduction)")
            reducedCompared += 1
        }
        #expect(compared >= (TestData.hasSharedData ? 20 : 8), "\(compared) images compared")
        #expect(reducedCompared >= 1, "\(reducedCompared) reduced JPEGs compared")
    }

    static func expectSamePixels(_ a: OpaquePointer, _ b: OpaquePointer, name: String,
                                 roundedFrom16Bits: Bool = false) throws {
        var aw: Int32 = 0, ah: Int32 = 0, bw: Int32 = 0, bh: Int32 = 0
        _ = fk_image_get_size(a, &aw, &ah, nil)
        _ = fk_image_get_size(b, &bw, &bh, nil)
        try #require(aw == bw && ah == bh, "\(name): \(aw)x\(ah) against OpenCV's \(bw)x\(bh)")
        let count = Int(aw) * Int(ah) * 3
        var pa = [UInt8](repeating: 0, count: count), pb = pa
        let bgr = Int32(FK_PIXEL_BGR8.rawValue)
        try #require(fk_image_copy_pixels(a, bgr, &pa, count, aw * 3, nil) == FK_OK.code)
        try #require(fk_image_copy_pixels(b, bgr, &pb, count, bw * 3, nil) == FK_OK.code)
        var different = 0, worst = 0
        for i in 0..<count where pa[i] != pb[i] {
            different += 1
            worst = max(worst, abs(Int(pa[i]) - Int(pb[i])))
        }
        if roundedFrom16Bits {
            #expect(worst <= 1, "\(name): \(different) of \(count) samples differ, by up to \(worst)")
        } else {
            #expect(worst <= 2 && Double(different) <= 0.001 * Double(count),
                    "\(name): \(different) of \(count) samples differ, by up to \(worst)")
        }
    }

    // MARK: The switch

    @Test("each kernel's path from the environment is FaceKit's own or the library's, and an unknown kernel is refused")
    func pathFromEnvironment() {
        for kernel in 0..<Int32(FK_KERNEL_COUNT.rawValue) {
            var path: Int32 = -1
            let call = NativeCall { fk_kernel_path_chosen(kernel, &path, $0) }
            #expect(call.status == FK_OK.code && (path == Self.fast || path == Self.reference))
        }
        var path: Int32 = -1
        #expect(fk_kernel_path_chosen(Int32(FK_KERNEL_COUNT.rawValue), &path, nil) == FK_INVALID_ARGUMENT.code)
        var yunet: OpaquePointer?
        #expect(fk_yunet_create_on_path(NativeInputs.yunet, 7, &yunet, nil) == FK_INVALID_ARGUMENT.code)
        #expect(yunet == nil)
    }

    @Test("FACEKIT_NATIVE: fast, reference, or reference: and a list of kernels; anything else is refused")
    func settingValues() {
        let kernels = ["yunet", "flow", "pose", "landmarks", "descriptor"]
        #expect(kernels.count == Int(FK_KERNEL_COUNT.rawValue))
        func paths(_ value: String?) -> [Int32]? {
            var result: [Int32] = []
            for kernel in kernels.indices {
                var path: Int32 = -1
                guard fk_kernel_path_parse(value, Int32(kernel), &path, nil) == FK_OK.code else { return nil }
                result.append(path)
            }
            return result
        }
        let allFast = [Int32](repeating: Self.fast, count: kernels.count)
        let allReference = [Int32](repeating: Self.reference, count: kernels.count)
        #expect(paths(nil) == allFast && paths("") == allFast && paths("fast") == allFast)
        #expect(paths("reference") == allReference)
        #expect(paths("reference:" + kernels.joined(separator: ",")) == allReference)
        #expect(paths("reference:flow,descriptor") == [Self.fast, Self.reference, Self.fast, Self.fast, Self.reference])
        for refused in ["Reference", "reference:", "reference:yunet,", "reference:Yunet", "opencv", " fast", "fast,flow"] {
            #expect(paths(refused) == nil, "\(refused)")
        }
    }
}

import CFaceKit
import CFaceKitTools
import FaceKitTestSupport
import Foundation
import Testing

/// Every entry point of CFaceKit.h refuses a NULL handle or a NULL pointer it needs with
/// FK_INVALID_ARGUMENT, with and without an error record, and never dereferences it.
@Suite("CFaceKit: NULL arguments")
struct NullArgumentTests {
    typealias Call = (name: String, body: (UnsafeMutablePointer<fk_error>?) -> Int32)

    /// Valid handles, so that each call can be given NULL for one argument while the others are
    /// real; those that need a model file are nil when it is not installed.
    final class Handles {
        let image = NativeInputs.image()!
        var canvas: OpaquePointer?
        var tracker: OpaquePointer?
        var hog: OpaquePointer?
        var yunet: OpaquePointer?
        var eyeState: OpaquePointer?
        var video: OpaquePointer?
        var writer: OpaquePointer?
        var cascade: OpaquePointer?
        var predictor: OpaquePointer?
        var descriptor: OpaquePointer?
        var mmod: OpaquePointer?
        let folder: String

        init(folder: String) {
            self.folder = folder
            fk_canvas_create(image, &canvas, nil)
            fk_point_tracker_create(15, 3, &tracker, nil)
            fk_detector_create(Int32(FK_DETECTOR_HOG.rawValue), nil, &hog, nil)
            fk_yunet_create(NativeInputs.yunet, &yunet, nil)
            fk_patch_classifier_create(NativeInputs.eyeState, "facekit_eye_state", 32, &eyeState, nil)
            fk_video_open(NativeInputs.video, 0, &video, nil)
            fk_video_writer_create(folder + "/out.avi", "MJPG", 25, 64, 48, &writer, nil)
            fk_cascade_create(NativeInputs.smileCascade, &cascade, nil)
            fk_shape_predictor_create(NativeInputs.landmarks68, nil, &predictor, nil)
            fk_face_descriptor_create(NativeInputs.faceDescriptor, &descriptor, nil)
            fk_mmod_detector_create(NativeInputs.mmod, &mmod, nil)
        }

        deinit {
            fk_mmod_detector_free(mmod)
            fk_face_descriptor_free(descriptor)
            fk_shape_predictor_free(predictor)
            fk_cascade_free(cascade)
            fk_video_writer_free(writer)
            fk_video_free(video)
            fk_patch_classifier_free(eyeState)
            fk_yunet_free(yunet)
            fk_detector_free(hog)
            fk_point_tracker_free(tracker)
            fk_canvas_free(canvas)
            fk_image_free(image)
        }
    }

    static func calls(_ h: Handles) -> [Call] {
        var out: OpaquePointer?
        var reduction: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var count: Int32 = 0
        var size = 0
        var bytes: UnsafeMutablePointer<UInt8>?
        var index: Int64 = 0
        var time = 0.0
        var ended: Int32 = 0
        var info = fk_video_info()
        var pose = fk_pose()
        var extent = fk_text_extent()
        var detections = [fk_detection](repeating: fk_detection(), count: 4)
        var yunetFaces = [fk_yunet_face](repeating: fk_yunet_face(), count: 4)
        let patch = [UInt8](repeating: 128, count: 32 * 32)
        var logit: Float = 0
        var points = [fk_point](repeating: fk_point(x: 10, y: 10), count: 68)
        var errors = [Float](repeating: 0, count: 68)
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 4)
        var descriptor = [Float](repeating: 0, count: Int(FK_FACE_DESCRIPTOR_LENGTH))
        let encoded = Array("not an image".utf8)
        let model = [Float](repeating: 0, count: 3 * 6)
        let region = fk_rect(x: 0, y: 0, width: 32, height: 32)
        let stroke = fk_stroke(color: fk_color(), width: 1, outline_color: fk_color(), outline_width: 0)
        let edges = [fk_graph_edge(a: 0, b: 1, weight: 1)]
        let affine: [Float] = [1, 0, 0, 0, 1, 0]
        var labels = [Int32](repeating: 0, count: 2)
        let gray = Int32(FK_PIXEL_GRAY8.rawValue)
        let hogKind = Int32(FK_DETECTOR_HOG.rawValue)
        var calls: [Call] = [
            ("fk_image_create_from_file(path NULL)", { fk_image_create_from_file(nil, 0, &out, $0) }),
            ("fk_image_create_from_file(out NULL)", { fk_image_create_from_file(NativeInputs.photo, 0, nil, $0) }),
            ("fk_image_create_from_file_reduced(path NULL)", {
                fk_image_create_from_file_reduced(nil, 0, 0, &out, &reduction, $0)
            }),
            ("fk_image_create_from_file_reduced(reduction NULL)", {
                fk_image_create_from_file_reduced(NativeInputs.photo, 0, 0, &out, nil, $0)
            }),
            ("fk_image_create_from_encoded(bytes NULL)", { fk_image_create_from_encoded(nil, 10, 0, &out, $0) }),
            ("fk_image_create_from_encoded(out NULL)", {
                fk_image_create_from_encoded(encoded, encoded.count, 0, nil, $0)
            }),
            ("fk_image_create_from_pixels(pixels NULL)", { fk_image_create_from_pixels(nil, 4, 4, 4, gray, &out, $0) }),
            ("fk_image_create_from_pixels(out NULL)", { fk_image_create_from_pixels(pixels, 4, 4, 4, gray, nil, $0) }),
            ("fk_image_get_size(image NULL)", { fk_image_get_size(nil, &width, &height, $0) }),
            ("fk_image_get_size(width NULL)", { fk_image_get_size(h.image, nil, &height, $0) }),
            ("fk_image_copy_pixels(image NULL)", { fk_image_copy_pixels(nil, gray, &pixels, pixels.count, 64, $0) }),
            ("fk_image_copy_pixels(out NULL)", { fk_image_copy_pixels(h.image, gray, nil, pixels.count, 64, $0) }),
            ("fk_image_resize(image NULL)", { fk_image_resize(nil, region, 16, 16, &out, $0) }),
            ("fk_image_resize(out NULL)", { fk_image_resize(h.image, region, 16, 16, nil, $0) }),
            ("fk_image_encode(image NULL)", { fk_image_encode(nil, "png", 90, &bytes, &size, $0) }),
            ("fk_image_encode(extension NULL)", { fk_image_encode(h.image, nil, 90, &bytes, &size, $0) }),
            ("fk_image_encode(bytes NULL)", { fk_image_encode(h.image, "png", 90, nil, &size, $0) }),
            ("fk_detector_create(out NULL)", { fk_detector_create(hogKind, nil, nil, $0) }),
            ("fk_detector_detect(detector NULL)", { fk_detector_detect(nil, h.image, 1, &detections, 4, &count, $0) }),
            ("fk_detector_detect(image NULL)", { fk_detector_detect(h.hog, nil, 1, &detections, 4, &count, $0) }),
            ("fk_detector_detect(count NULL)", { fk_detector_detect(h.hog, h.image, 1, &detections, 4, nil, $0) }),
            ("fk_detector_detect_above(detector NULL)", { fk_detector_detect_above(nil, h.image, 1, -1, &detections, 4, &count, $0) }),
            ("fk_detector_detect_above(image NULL)", { fk_detector_detect_above(h.hog, nil, 1, -1, &detections, 4, &count, $0) }),
            ("fk_mmod_detector_create(path NULL)", { fk_mmod_detector_create(nil, &out, $0) }),
            ("fk_mmod_detector_create(out NULL)", { fk_mmod_detector_create(NativeInputs.mmod, nil, $0) }),
            ("fk_mmod_detector_detect(detector NULL)", { fk_mmod_detector_detect(nil, h.image, 0, 0, &detections, 4, &count, $0) }),
            ("fk_yunet_create(path NULL)", { fk_yunet_create(nil, &out, $0) }),
            ("fk_yunet_create(out NULL)", { fk_yunet_create(NativeInputs.yunet, nil, $0) }),
            ("fk_yunet_create_on_path(path NULL)", { fk_yunet_create_on_path(nil, 2, &out, $0) }),
            ("fk_yunet_create_on_path(out NULL)", { fk_yunet_create_on_path(NativeInputs.yunet, 2, nil, $0) }),
            ("fk_kernel_path_chosen(path NULL)", { fk_kernel_path_chosen(0, nil, $0) }),
            ("fk_kernel_path_parse(path NULL)", { fk_kernel_path_parse("reference", 0, nil, $0) }),
            ("fk_yunet_detect(yunet NULL)", {
                fk_yunet_detect(nil, h.image, region, 1, 0, 0, 0.5, 0.3, &yunetFaces, 4, &count, $0)
            }),
            ("fk_yunet_detect(image NULL)", {
                fk_yunet_detect(h.yunet, nil, region, 1, 0, 0, 0.5, 0.3, &yunetFaces, 4, &count, $0)
            }),
            ("fk_yunet_detect(out NULL)", {
                fk_yunet_detect(h.yunet, h.image, region, 1, 0, 0, 0.5, 0.3, nil, 4, &count, $0)
            }),
            ("fk_patch_classifier_create(path NULL)", { fk_patch_classifier_create(nil, "facekit_eye_state", 32, &out, $0) }),
            ("fk_patch_classifier_create(graph name NULL)", {
                fk_patch_classifier_create(NativeInputs.eyeState, nil, 32, &out, $0)
            }),
            ("fk_patch_classifier_create(out NULL)", {
                fk_patch_classifier_create(NativeInputs.eyeState, "facekit_eye_state", 32, nil, $0)
            }),
            ("fk_patch_classifier_run(classifier NULL)", { fk_patch_classifier_run(nil, patch, 1, &logit, $0) }),
            ("fk_patch_classifier_run(patches NULL)", { fk_patch_classifier_run(h.eyeState, nil, 1, &logit, $0) }),
            ("fk_patch_classifier_run(logits NULL)", { fk_patch_classifier_run(h.eyeState, patch, 1, nil, $0) }),
            ("fk_point_tracker_create(out NULL)", { fk_point_tracker_create(15, 3, nil, $0) }),
            ("fk_point_tracker_push_frame(tracker NULL)", { fk_point_tracker_push_frame(nil, h.image, 1, $0) }),
            ("fk_point_tracker_push_frame(frame NULL)", { fk_point_tracker_push_frame(h.tracker, nil, 1, $0) }),
            ("fk_point_tracker_follow(tracker NULL)", { fk_point_tracker_follow(nil, points, 1, &points, &errors, $0) }),
            ("fk_point_tracker_follow(points NULL)", { fk_point_tracker_follow(h.tracker, nil, 1, &points, &errors, $0) }),
            ("fk_opencv_image_decode(bytes NULL)", { fk_opencv_image_decode(nil, 10, 1, &out, $0) }),
            ("fk_opencv_image_decode(out NULL)", { fk_opencv_image_decode(encoded, encoded.count, 1, nil, $0) }),
            ("fk_shape_predictor_create(path NULL)", { fk_shape_predictor_create(nil, nil, &out, $0) }),
            ("fk_shape_predictor_create(out NULL)", { fk_shape_predictor_create(NativeInputs.landmarks68, nil, nil, $0) }),
            ("fk_shape_predictor_create_on_path(path NULL)", { fk_shape_predictor_create_on_path(nil, nil, 2, &out, $0) }),
            ("fk_shape_predictor_create_on_path(out NULL)", {
                fk_shape_predictor_create_on_path(NativeInputs.landmarks68, nil, 2, nil, $0)
            }),
            ("fk_shape_predictor_point_count(predictor NULL)", { fk_shape_predictor_point_count(nil, &count, $0) }),
            ("fk_shape_predictor_predict(predictor NULL)", {
                fk_shape_predictor_predict(nil, h.image, [region], 1, &points, 68, $0)
            }),
            ("fk_solve_pose(model NULL)", { fk_solve_pose(nil, points, 6, 64, 48, 64, &pose, $0) }),
            ("fk_solve_pose(out NULL)", { fk_solve_pose(model, points, 6, 64, 48, 64, nil, $0) }),
            ("fk_video_open(path NULL)", { fk_video_open(nil, 0, &out, $0) }),
            ("fk_video_open(out NULL)", { fk_video_open(NativeInputs.video, 0, nil, $0) }),
            ("fk_video_get_info(video NULL)", { fk_video_get_info(nil, &info, $0) }),
            ("fk_video_get_info(out NULL)", { fk_video_get_info(h.video, nil, $0) }),
            ("fk_video_next(video NULL)", { fk_video_next(nil, 1, &out, &index, &time, &ended, $0) }),
            ("fk_video_next(frame NULL while decoding)", { fk_video_next(h.video, 1, nil, &index, &time, &ended, $0) }),
            ("fk_video_next(ended NULL)", { fk_video_next(h.video, 0, &out, &index, &time, nil, $0) }),
            ("fk_face_descriptor_create(path NULL)", { fk_face_descriptor_create(nil, &out, $0) }),
            ("fk_face_descriptor_create(out NULL)", { fk_face_descriptor_create(NativeInputs.faceDescriptor, nil, $0) }),
            ("fk_face_descriptor_create_on_path(path NULL)", { fk_face_descriptor_create_on_path(nil, 2, &out, $0) }),
            ("fk_face_descriptor_create_on_path(out NULL)", {
                fk_face_descriptor_create_on_path(NativeInputs.faceDescriptor, 2, nil, $0)
            }),
            ("fk_face_descriptor_copy(source NULL)", { fk_face_descriptor_copy(nil, &out, $0) }),
            ("fk_face_descriptor_compute(descriptor NULL)", {
                fk_face_descriptor_compute(nil, h.image, points, 68, &descriptor, $0)
            }),
            ("fk_dlib_face_descriptor_create(path NULL)", { fk_dlib_face_descriptor_create(nil, &out, $0) }),
            ("fk_dlib_face_descriptor_create(out NULL)", {
                fk_dlib_face_descriptor_create(NativeInputs.faceDescriptor, nil, $0)
            }),
            ("fk_dlib_face_descriptor_compute(descriptor NULL)", {
                fk_dlib_face_descriptor_compute(nil, h.image, points, 68, &descriptor, $0)
            }),
            ("fk_cascade_create(path NULL)", { fk_cascade_create(nil, &out, $0) }),
            ("fk_cascade_create(out NULL)", { fk_cascade_create(NativeInputs.smileCascade, nil, $0) }),
            ("fk_cascade_best_neighbours(cascade NULL)", { fk_cascade_best_neighbours(nil, h.image, region, 1.1, &count, $0) }),
            ("fk_canvas_create(image NULL)", { fk_canvas_create(nil, &out, $0) }),
            ("fk_canvas_create(out NULL)", { fk_canvas_create(h.image, nil, $0) }),
            ("fk_canvas_get_size(canvas NULL)", { fk_canvas_get_size(nil, &width, &height, $0) }),
            ("fk_canvas_draw_polyline(canvas NULL)", { fk_canvas_draw_polyline(nil, points, 2, 0, stroke, $0) }),
            ("fk_canvas_draw_polyline(points NULL)", { fk_canvas_draw_polyline(h.canvas, nil, 2, 0, stroke, $0) }),
            ("fk_canvas_draw_circle(canvas NULL)", { fk_canvas_draw_circle(nil, fk_point(x: 5, y: 5), 3, 0, stroke, $0) }),
            ("fk_canvas_fill_rect(canvas NULL)", { fk_canvas_fill_rect(nil, region, fk_color(), $0) }),
            ("fk_canvas_draw_text(canvas NULL)", { fk_canvas_draw_text(nil, "a", fk_point(x: 5, y: 5), 10, stroke, $0) }),
            ("fk_canvas_draw_text(text NULL)", {
                fk_canvas_draw_text(h.canvas, nil, fk_point(x: 5, y: 5), 10, stroke, $0)
            }),
            ("fk_text_measure(text NULL)", { fk_text_measure(nil, 10, stroke, &extent, $0) }),
            ("fk_text_measure(out NULL)", { fk_text_measure("a", 10, stroke, nil, $0) }),
            ("fk_canvas_copy_image(canvas NULL)", { fk_canvas_copy_image(nil, &out, $0) }),
            ("fk_canvas_copy_image(out NULL)", { fk_canvas_copy_image(h.canvas, nil, $0) }),
            ("fk_video_writer_create(path NULL)", { fk_video_writer_create(nil, "MJPG", 25, 64, 48, &out, $0) }),
            ("fk_video_writer_create(fourcc NULL)", {
                fk_video_writer_create(h.folder + "/null.avi", nil, 25, 64, 48, &out, $0)
            }),
            ("fk_video_writer_create(out NULL)", {
                fk_video_writer_create(h.folder + "/null.avi", "MJPG", 25, 64, 48, nil, $0)
            }),
            ("fk_video_writer_write(writer NULL)", { fk_video_writer_write(nil, h.image, $0) }),
            ("fk_video_writer_write(frame NULL)", { fk_video_writer_write(h.writer, nil, $0) }),
            ("fk_video_writer_finish(writer NULL)", { fk_video_writer_finish(nil, $0) }),
            ("fk_blas_set_threads(in_use NULL)", { fk_blas_set_threads(1, nil, $0) }),
            ("fk_image_warp(image NULL)", { fk_image_warp(nil, affine, 8, 8, 0, &out, $0) }),
            ("fk_image_warp(affine NULL)", { fk_image_warp(h.image, nil, 8, 8, 0, &out, $0) }),
            ("fk_image_warp(out NULL)", { fk_image_warp(h.image, affine, 8, 8, 0, nil, $0) }),
            ("fk_squared_distances(a NULL)", { fk_squared_distances(nil, 1, model, 1, 3, &errors, $0) }),
            ("fk_squared_distances(b NULL)", { fk_squared_distances(model, 1, nil, 1, 3, &errors, $0) }),
            ("fk_squared_distances(out NULL)", { fk_squared_distances(model, 1, model, 1, 3, nil, $0) }),
            ("fk_chinese_whispers(edges NULL)", { fk_chinese_whispers(nil, 1, 2, 10, &labels, &count, $0) }),
            ("fk_chinese_whispers(labels NULL)", { fk_chinese_whispers(edges, 1, 2, 10, nil, &count, $0) }),
            ("fk_chinese_whispers(cluster_count NULL)", { fk_chinese_whispers(edges, 1, 2, 10, &labels, nil, $0) }),
        ]
        // The second handle NULL next to a real first one, where the first needs a model file.
        if let predictor = h.predictor {
            calls.append(("fk_shape_predictor_predict(image NULL)", {
                fk_shape_predictor_predict(predictor, nil, [region], 1, &points, 68, $0)
            }))
            calls.append(("fk_shape_predictor_point_count(count NULL)", { fk_shape_predictor_point_count(predictor, nil, $0) }))
        }
        if let faceDescriptor = h.descriptor {
            calls.append(("fk_face_descriptor_copy(out NULL)", { fk_face_descriptor_copy(faceDescriptor, nil, $0) }))
            calls.append(("fk_face_descriptor_compute(image NULL)", {
                fk_face_descriptor_compute(faceDescriptor, nil, points, 68, &descriptor, $0)
            }))
        }
        if let mmod = h.mmod {
            calls.append(("fk_mmod_detector_detect(image NULL)", { fk_mmod_detector_detect(mmod, nil, 0, 0, &detections, 4, &count, $0) }))
            calls.append(("fk_mmod_detector_detect(count NULL)", { fk_mmod_detector_detect(mmod, h.image, 0, 0, &detections, 4, nil, $0) }))
        }
        if let cascade = h.cascade {
            calls.append(("fk_cascade_best_neighbours(image NULL)", {
                fk_cascade_best_neighbours(cascade, nil, region, 1.1, &count, $0)
            }))
        }
        return calls
    }

    @Test("the handles the calls below are given next to a NULL one were made")
    func handles() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let h = Handles(folder: folder)
            for (name, handle) in [
                ("canvas", h.canvas), ("tracker", h.tracker), ("hog", h.hog), ("yunet", h.yunet), ("eye state", h.eyeState),
                ("video", h.video),
                ("writer", h.writer),
            ] {
                #expect(handle != nil, "\(name) could not be made")
            }
        }
    }

    @Test("every function refuses a NULL handle or out-pointer with FK_INVALID_ARGUMENT and says why")
    func nullArguments() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let h = Handles(folder: folder)
            let calls = Self.calls(h)
            #expect(calls.count >= 64)
            for (name, body) in calls {
                let call = NativeCall { body($0) }
                #expect(call.status == FK_INVALID_ARGUMENT.code, "\(name): status \(call.status)")
                #expect(call.record.status == FK_INVALID_ARGUMENT.code, "\(name)")
                #expect(call.messageIsTerminated && !call.message.isEmpty, "\(name)")
            }
        }
    }

    @Test("without an error record the status is the same")
    func nullArgumentsWithoutRecord() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let h = Handles(folder: folder)
            for (name, body) in Self.calls(h) {
                #expect(body(nil) == FK_INVALID_ARGUMENT.code, "\(name)")
            }
        }
    }

    @Test("every _free(NULL) is a no-op")
    func freeNull() {
        fk_image_free(nil)
        fk_detector_free(nil)
        fk_yunet_free(nil)
        fk_patch_classifier_free(nil)
        fk_point_tracker_free(nil)
        fk_shape_predictor_free(nil)
        fk_video_free(nil)
        fk_face_descriptor_free(nil)
        fk_dlib_face_descriptor_free(nil)
        fk_cascade_free(nil)
        fk_bytes_free(nil)
        fk_canvas_free(nil)
        fk_video_writer_free(nil)
        // Still here: a free that dereferenced NULL would have ended the test process. Something
        // real still works after them.
        let image = NativeInputs.image()
        #expect(image != nil)
        fk_image_free(image)
    }
}

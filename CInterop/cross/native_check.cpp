// The shim's native kernels run through its C API on the repository's own inputs, for a build of
// another architecture or Debian release (scripts/compile-against-debian --run: built for aarch64
// and run under qemu-user, or against Debian 13's libraries and run on them, and built for the
// host, the two outputs compared within tolerances):
//   yunet      faces in Tests/Fixtures/astronaut.png (small_cnn.cpp's kernels), box and score
//   landmarks  the 68 points in the first face (shape_predictor.cpp)
//   flow       a grid followed over 12 frames (point_tracker.cpp, on cv::calcOpticalFlowPyrLK):
//              the photo moved by whole pixels, the same bytes on every build; video_flow, the
//              same over TestVideos/crossing.mp4, whose frames FFmpeg decodes and converts. Each
//              point's position and forward-backward error (OpenCV's own arithmetic differs
//              between its SSE2 and NEON builds), the counts, and a hash of the frames
//   descriptor the face's 128 numbers (descriptor_conv.hpp) and their largest difference from
//              dlib's own layer on the same build
//   eyes       the eye-state network's logit on a patch of the face (OpenCV's DNN)
//   decoded    each picture of Tests/Fixtures decoded (libjpeg, libpng, libheif with its AVIF and
//              HEVC decoders, OpenCV's imgcodecs for the rest): its size and mean sample value
//   clip       each clip of TestVideos read to its end (FFmpeg): frames, last timestamp, size
//   allocator  whether the C library takes facekit's allocator settings (process_allocator.cpp)
//   crafted    each image the fuzzing found (CInterop/fuzz/regressions): refused with which status
//              (under a limit of 51,200 pixels, as FuzzRegressionTests reads them), or its size
// Usage: native_check REPOSITORY MODELS (the folder with dlib's models). Prints "name value ...".
#include <CFaceKit.h>
#include <CFaceKitTools.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

bool ok(int32_t status, const fk_error &error, const char *what) {
    if (status == FK_OK) return true;
    std::printf("error %s: %s\n", what, error.message);
    ++failures;
    return false;
}

uint64_t fnv(uint64_t hash, const void *data, size_t count) {
    for (size_t i = 0; i < count; ++i) hash = (hash ^ static_cast<const uint8_t *>(data)[i]) * 1099511628211u;
    return hash;
}

/// Follows a grid over each of up to 12 frames from `next` (which returns NULL at the end) into
/// the next, and prints each point's new position and forward-backward error (-1: lost), how many
/// were followed and lost, and a hash of the frames.
template <class Next>
void follow(const char *name, Next next) {
    fk_error error{};
    fk_point_tracker *tracker = nullptr;
    if (!ok(fk_point_tracker_create(15, 2, &tracker, &error), error, "tracker")) return;
    long followed = 0, lost = 0;
    uint64_t frame_hash = 1469598103934665603u;  // FNV-1a
    for (int frame = 0; frame < 12; ++frame) {
        fk_image *picture = next();
        if (picture == nullptr) break;
        int32_t w = 0, h = 0;
        fk_image_get_size(picture, &w, &h, &error);
        std::vector<uint8_t> pixels(size_t(w) * h * 3);
        if (ok(fk_image_copy_pixels(picture, FK_PIXEL_BGR8, pixels.data(), pixels.size(), w * 3, &error), error,
               "pixels"))
            frame_hash = fnv(frame_hash, pixels.data(), pixels.size());
        const bool pushed = ok(fk_point_tracker_push_frame(tracker, picture, 1, &error), error, "push frame");
        fk_image_free(picture);
        if (!pushed) break;
        if (frame == 0) continue;
        std::vector<fk_point> from;
        for (int y = -20; y <= h + 20; y += 17)
            for (int x = -20; x <= w + 20; x += 19) from.push_back({float(x) + 0.37f, float(y) + 0.61f});
        const int32_t n = int32_t(from.size());
        std::vector<fk_point> to(from.size());
        std::vector<float> fb_error(from.size());
        if (!ok(fk_point_tracker_follow(tracker, from.data(), n, to.data(), fb_error.data(), &error), error, "flow"))
            break;
        for (size_t i = 0; i < from.size(); ++i) {
            if (fb_error[i] < 0) ++lost;
            else ++followed;
            std::printf("%s_point %.9g %.9g %.9g\n", name, to[i].x, to[i].y, fb_error[i]);
        }
    }
    fk_point_tracker_free(tracker);
    std::printf("%s_followed %ld\n%s_lost %ld\n%s_frame_bits %016llx\n", name, followed, name, lost, name,
                (unsigned long long)frame_hash);
}

/// "decoded NAME WIDTH HEIGHT MEAN": the picture at `path` decoded upright, and its mean sample.
void decoded(const std::string &path, const char *name) {
    fk_error error{};
    fk_image *image = nullptr;
    if (!ok(fk_image_create_from_file(path.c_str(), 0, &image, &error), error, name)) return;
    int32_t width = 0, height = 0;
    fk_image_get_size(image, &width, &height, &error);
    std::vector<uint8_t> pixels(size_t(width) * height * 3);
    if (ok(fk_image_copy_pixels(image, FK_PIXEL_BGR8, pixels.data(), pixels.size(), width * 3, &error), error, name)) {
        double sum = 0;
        for (uint8_t v : pixels) sum += v;
        std::printf("decoded %s %d %d %.6f\n", name, width, height, sum / double(pixels.size()));
    }
    fk_image_free(image);
}

/// "crafted NAME STATUS WIDTH HEIGHT": the image at `path` read under a limit of 51,200 pixels, the
/// status fk_image_create_from_encoded returns and, when it reads it, the image's size.
void crafted(const std::string &path, const char *name) {
    std::FILE *file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        std::printf("error %s: cannot open\n", name);
        ++failures;
        return;
    }
    std::vector<uint8_t> bytes;
    uint8_t buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) bytes.insert(bytes.end(), buffer, buffer + n);
    std::fclose(file);
    fk_error error{};
    fk_image *image = nullptr;
    const int32_t status = fk_image_create_from_encoded(bytes.data(), bytes.size(), 512 * 100, &image, &error);
    int32_t width = 0, height = 0;
    if (status == FK_OK) fk_image_get_size(image, &width, &height, &error);
    std::printf("crafted %s %d %d %d\n", name, status, width, height);
    fk_image_free(image);
}

/// "clip NAME FRAMES LAST_TIMESTAMP_MS WIDTH HEIGHT": the clip at `path` read to its end.
void clip(const std::string &path, const char *name) {
    fk_error error{};
    fk_video *video = nullptr;
    if (!ok(fk_video_open(path.c_str(), 0, &video, &error), error, name)) return;
    int64_t frames = 0;
    double last = -1;
    int32_t width = 0, height = 0;
    while (true) {
        fk_image *frame = nullptr;
        int64_t index = 0;
        double timestamp = 0;
        int32_t ended = 0;
        if (!ok(fk_video_next(video, 1, &frame, &index, &timestamp, &ended, &error), error, name) || ended) break;
        ++frames;
        last = timestamp;
        fk_image_get_size(frame, &width, &height, &error);
        fk_image_free(frame);
    }
    std::printf("clip %s %lld %.3f %d %d\n", name, static_cast<long long>(frames), last, width, height);
    fk_video_free(video);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: native_check REPOSITORY MODELS\n");
        return 64;
    }
    const std::string repository = argv[1], models = argv[2];
    fk_error error{};

    // Taken by every glibc facekit runs on, or its photos' blocks are mapped afresh again.
    const int32_t allocator = fk_allocator_keep_freed_memory();
    std::printf("allocator %d\n", allocator);
    if (allocator != 1) ++failures;

    fk_image *image = nullptr;
    if (!ok(fk_image_create_from_file((repository + "/Tests/Fixtures/astronaut.png").c_str(), 0, &image, &error),
            error, "image"))
        return 1;
    int32_t width = 0, height = 0;
    fk_image_get_size(image, &width, &height, &error);
    std::printf("image %d %d\n", width, height);

    // YuNet over the whole photo at 320 pixels across.
    fk_yunet *yunet = nullptr;
    std::vector<fk_yunet_face> faces(16);
    int32_t found = 0;
    if (ok(fk_yunet_create((repository + "/Sources/FaceKit/BundledModels/yunet_n_320_320.onnx").c_str(), &yunet,
                           &error),
           error, "yunet")) {
        const fk_rect whole{0, 0, float(width), float(height)};
        if (ok(fk_yunet_detect(yunet, image, whole, 320.f / float(width), 0, 0, 0.5f, 0.3f, faces.data(),
                               int32_t(faces.size()), &found, &error),
               error, "yunet detect")) {
            std::printf("yunet_faces %d\n", found);
            for (int i = 0; i < std::min<int>(found, int(faces.size())); ++i) {
                const fk_yunet_face &f = faces[size_t(i)];
                std::printf("yunet %.9g %.9g %.9g %.9g %.9g", f.box.x, f.box.y, f.box.width, f.box.height, f.score);
                for (const fk_point &k : f.keypoints) std::printf(" %.9g %.9g", k.x, k.y);
                std::printf("\n");
            }
        }
        fk_yunet_free(yunet);
    }
    if (found < 1) {
        std::printf("error no face\n");
        return 1;
    }

    // The 68 points in the first face's box, and its descriptor both ways.
    fk_shape_predictor *predictor = nullptr;
    std::vector<fk_point> points(68);
    if (ok(fk_shape_predictor_create((models + "/shape_predictor_68_face_landmarks.dat").c_str(), nullptr,
                                     &predictor, &error),
           error, "shape predictor")) {
        if (ok(fk_shape_predictor_predict(predictor, image, &faces[0].box, 1, points.data(), 68, &error), error,
               "landmarks")) {
            std::printf("landmarks");
            for (const fk_point &p : points) std::printf(" %.9g %.9g", p.x, p.y);
            std::printf("\n");
        }
        fk_shape_predictor_free(predictor);
    }
    fk_face_descriptor *descriptor = nullptr;
    fk_dlib_face_descriptor *reference = nullptr;
    const std::string resnet = models + "/dlib_face_recognition_resnet_model_v1.dat";
    if (ok(fk_face_descriptor_create(resnet.c_str(), &descriptor, &error), error, "descriptor") &&
        ok(fk_dlib_face_descriptor_create(resnet.c_str(), &reference, &error), error, "dlib descriptor")) {
        float ours[FK_FACE_DESCRIPTOR_LENGTH], dlibs[FK_FACE_DESCRIPTOR_LENGTH];
        if (ok(fk_face_descriptor_compute(descriptor, image, points.data(), 68, ours, &error), error, "descriptor") &&
            ok(fk_dlib_face_descriptor_compute(reference, image, points.data(), 68, dlibs, &error), error,
               "dlib descriptor")) {
            float largest = 0;
            for (int i = 0; i < FK_FACE_DESCRIPTOR_LENGTH; ++i) largest = std::max(largest, std::fabs(ours[i] - dlibs[i]));
            std::printf("descriptor_vs_dlib %g\n", largest);
            std::printf("descriptor");
            for (float v : ours) std::printf(" %.9g", v);
            std::printf("\n");
        }
    }
    fk_face_descriptor_free(descriptor);
    fk_dlib_face_descriptor_free(reference);

    // The eye-state network on a 32-pixel patch around the first face's right eye keypoint.
    fk_patch_classifier *eyes = nullptr;
    if (ok(fk_patch_classifier_create((repository + "/Sources/FaceKit/BundledModels/eye_state.onnx").c_str(),
                                      "facekit_eye_state", 32, &eyes, &error),
           error, "eye state")) {
        std::vector<uint8_t> patch(32 * 32);
        const float affine[6] = {0.5f, 0, faces[0].keypoints[0].x - 8, 0, 0.5f, faces[0].keypoints[0].y - 8};
        float logit = 0;
        if (ok(fk_image_sample_gray(image, affine, 32, 32, patch.data(), patch.size(), &error), error, "eye patch") &&
            ok(fk_patch_classifier_run(eyes, patch.data(), 1, &logit, &error), error, "eye logit"))
            std::printf("eyes %.9g\n", logit);
        fk_patch_classifier_free(eyes);
    }

    // A grid followed frame to frame: over the photo moved by whole pixels (the same bytes on every
    // build), then over the clip's frames (FFmpeg's).
    std::vector<uint8_t> photo(size_t(width) * height * 3);
    if (ok(fk_image_copy_pixels(image, FK_PIXEL_BGR8, photo.data(), photo.size(), width * 3, &error), error,
           "photo pixels")) {
        int k = 0;
        const int side = std::min(width, height) - 48;
        follow("flow", [&]() -> fk_image * {
            if (k == 12) return nullptr;
            const uint8_t *start = photo.data() + (size_t(k) * width + 2 * k) * 3;  // (2k, k)
            ++k;
            fk_image *moved = nullptr;
            ok(fk_image_create_from_pixels(start, side, side, width * 3, FK_PIXEL_BGR8, &moved, &error), error,
               "moved photo");
            return moved;
        });
    }
    fk_video *video = nullptr;
    if (ok(fk_video_open((repository + "/TestVideos/crossing.mp4").c_str(), 0, &video, &error), error, "video")) {
        follow("video_flow", [&]() -> fk_image * {
            fk_image *frame = nullptr;
            int64_t index = 0;
            double timestamp = 0;
            int32_t ended = 0;
            if (!ok(fk_video_next(video, 1, &frame, &index, &timestamp, &ended, &error), error, "frame") || ended)
                return nullptr;
            return frame;
        });
    }
    fk_video_free(video);
    fk_image_free(image);

    for (const char *name : {"astronaut.jpg", "astronaut.png", "astronaut-16bit.png", "astronaut-gray.png",
                             "astronaut-rgba.png", "astronaut-portrait-exif6.jpg", "astronaut.avif",
                             "astronaut-10bit.heic", "astronaut-portrait-irot.heic", "astronaut.bmp",
                             "astronaut.tiff", "astronaut.webp"})
        decoded(repository + "/Tests/Fixtures/" + name, name);
    for (const char *name : {"crossing.mp4", "crossing-rotated.mp4", "leave-reenter.mp4"})
        clip(repository + "/TestVideos/" + name, name);
    for (const char *name : {"header/ispe-512x44-coded-512x512.heic", "header/os2-core-header-16x12.bmp",
                             "header/tem-marker-16x12.jpg", "image/png-sides-overflow.png"})
        crafted(repository + "/CInterop/fuzz/regressions/" + name, name);
    return failures == 0 ? 0 : 1;
}

// The differential suite under the sanitizers: each kernel FaceKit has its own native code for,
// run against the library call it replaces through the C API, on the same real inputs, within a
// stated tolerance rather than to the bit (so that it holds on other library versions and
// architectures; docs/architecture.md, "Kernels and their references", lists each kernel, its
// reference and the largest difference measured). scripts/test-sanitizers compiles the shim with
// AddressSanitizer and UndefinedBehaviorSanitizer and runs this program; a sanitizer report or a
// comparison out of tolerance fails it.
//
//   differential REPOSITORY MODELS [SHARED_DATA]
//
// REPOSITORY holds Tests/Fixtures, TestVideos and the bundled YuNet; MODELS dlib's 68-point model
// and face descriptor (.models); SHARED_DATA, when given, adds the development data's photos.
#include "CFaceKit.h"
#include "CFaceKitTools.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect(bool holds, const std::string &what) {
    if (holds) return;
    ++failures;
    std::fprintf(stderr, "differential: %s\n", what.c_str());
}

[[noreturn]] void fatal(const std::string &what, const fk_error &error) {
    std::fprintf(stderr, "differential: %s: %s\n", what.c_str(), error.message);
    std::exit(1);
}

struct ImageFree {
    void operator()(fk_image *image) const { fk_image_free(image); }
};
using Image = std::unique_ptr<fk_image, ImageFree>;

/// A decoded image and what it is, for messages.
struct Picture {
    std::string name;
    Image image;
    int32_t width = 0, height = 0;
};

Picture picture(std::string name, fk_image *image) {
    Picture p{std::move(name), Image(image)};
    fk_error error{};
    if (fk_image_get_size(image, &p.width, &p.height, &error) != FK_OK) fatal(p.name, error);
    return p;
}

std::vector<std::string> files_in(const std::string &folder, const std::vector<std::string> &suffixes) {
    std::vector<std::string> paths;
    if (DIR *dir = opendir(folder.c_str())) {
        while (const dirent *entry = readdir(dir)) {
            const std::string name = entry->d_name;
            for (const std::string &suffix : suffixes)
                if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
                    paths.push_back(folder + "/" + name);
        }
        closedir(dir);
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

/// The first `count` frames of a video (fewer when it is shorter).
std::vector<Image> frames(const std::string &path, int count) {
    fk_error error{};
    fk_video *video = nullptr;
    if (fk_video_open(path.c_str(), 0, &video, &error) != FK_OK) fatal(path, error);
    std::vector<Image> frames;
    while (int(frames.size()) < count) {
        fk_image *frame = nullptr;
        int64_t index = 0;
        double timestamp = 0;
        int32_t ended = 0;
        if (fk_video_next(video, 1, &frame, &index, &timestamp, &ended, &error) != FK_OK) fatal(path, error);
        if (ended) break;
        frames.emplace_back(frame);
    }
    fk_video_free(video);
    return frames;
}

/// The fixture photo, every third of the first 30 frames of two TestVideos clips, and the
/// development data's photos (dlib's and face_recognition's examples).
std::vector<Picture> pictures(const std::string &repository, const std::vector<std::string> &shared_photos) {
    std::vector<Picture> pictures;
    std::vector<std::string> paths{repository + "/Tests/Fixtures/astronaut.png"};
    paths.insert(paths.end(), shared_photos.begin(), shared_photos.end());
    for (const std::string &path : paths) {
        fk_error error{};
        fk_image *image = nullptr;
        if (fk_image_create_from_file(path.c_str(), 0, &image, &error) != FK_OK) fatal(path, error);
        pictures.push_back(picture(path.substr(path.find_last_of('/') + 1), image));
    }
    for (const char *clip : {"crossing.mp4", "leave-reenter.mp4"}) {
        std::vector<Image> read = frames(repository + "/TestVideos/" + clip, 30);
        for (size_t i = 0; i < read.size(); i += 3)
            pictures.push_back(picture(std::string(clip) + " frame " + std::to_string(i), read[i].release()));
    }
    return pictures;
}

// ---- YuNet ----------------------------------------------------------------------------------

std::vector<fk_yunet_face> detect(fk_yunet *yunet, const Picture &p, float scale, int32_t mirrored, int32_t turns,
                                  float min_score) {
    std::vector<fk_yunet_face> faces(64);
    int32_t count = 0;
    fk_error error{};
    const fk_rect region{0, 0, float(p.width), float(p.height)};
    if (fk_yunet_detect(yunet, p.image.get(), region, scale, mirrored, turns, min_score, 0.3f, faces.data(), 64,
                        &count, &error) != FK_OK)
        fatal(p.name, error);
    faces.resize(size_t(std::min(count, 64)));
    return faces;
}

float overlap(const fk_rect &a, const fk_rect &b) {
    const float w = std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    const float h = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
    if (w <= 0 || h <= 0) return 0;
    return w * h / (a.width * a.height + b.width * b.height - w * h);
}

float scale_for(const Picture &p) { return std::min(1.0f, 640.0f / float(std::max(p.width, p.height))); }

/// Boxes and keypoints within 0.05 px, scores within 0.001; a face scoring within 0.01 of the
/// minimum may be found by one path and not the other.
void yunet_agrees(const std::string &model, const std::vector<Picture> &pictures) {
    fk_error error{};
    fk_yunet *ours = nullptr, *theirs = nullptr;
    if (fk_yunet_create_on_path(model.c_str(), FK_PATH_FAST, &ours, &error) != FK_OK) fatal(model, error);
    if (fk_yunet_create_on_path(model.c_str(), FK_PATH_REFERENCE, &theirs, &error) != FK_OK) fatal(model, error);
    const float min_score = 0.5f;
    int matched = 0;
    float worst_pixels = 0, worst_score = 0;
    for (size_t number = 0; number < pictures.size(); ++number) {
        const Picture &p = pictures[number];
        std::vector<std::pair<int32_t, int32_t>> passes{{0, 0}};
        if (number == 0) passes.insert(passes.end(), {{1, 0}, {0, 1}, {1, 3}});
        for (auto [mirrored, turns] : passes) {
            const auto a = detect(ours, p, scale_for(p), mirrored, turns, min_score);
            const auto b = detect(theirs, p, scale_for(p), mirrored, turns, min_score);
            for (const auto &[one, other] : {std::make_pair(&a, &b), std::make_pair(&b, &a)}) {
                for (const fk_yunet_face &face : *one) {
                    if (face.score < min_score + 0.01f) continue;
                    const fk_yunet_face *partner = nullptr;
                    for (const fk_yunet_face &candidate : *other)
                        if (!partner || overlap(candidate.box, face.box) > overlap(partner->box, face.box)) partner = &candidate;
                    if (!partner || overlap(partner->box, face.box) <= 0.9f) {
                        expect(false, "YuNet: " + p.name + ": a face found by one path only");
                        continue;
                    }
                    float pixels = std::max({std::fabs(face.box.x - partner->box.x), std::fabs(face.box.y - partner->box.y),
                                             std::fabs(face.box.width - partner->box.width),
                                             std::fabs(face.box.height - partner->box.height)});
                    for (int k = 0; k < FK_YUNET_KEYPOINT_COUNT; ++k)
                        pixels = std::max({pixels, std::fabs(face.keypoints[k].x - partner->keypoints[k].x),
                                           std::fabs(face.keypoints[k].y - partner->keypoints[k].y)});
                    const float score = std::fabs(face.score - partner->score);
                    worst_pixels = std::max(worst_pixels, pixels);
                    worst_score = std::max(worst_score, score);
                    expect(pixels <= 0.05f && score <= 0.001f, "YuNet: " + p.name + ": " + std::to_string(pixels) +
                                                                   " px, score " + std::to_string(score) + " apart");
                    ++matched;
                }
            }
        }
    }
    fk_yunet_free(ours);
    fk_yunet_free(theirs);
    expect(matched >= 6, "YuNet: too few faces to compare: " + std::to_string(matched / 2));
    std::fprintf(stderr, "differential: YuNet, runner against OpenCV's DNN: %d faces, at most %g px and %g in score apart\n",
                 matched / 2, worst_pixels, worst_score);
}

// ---- 68 points and face descriptor ---------------------------------------------------------

struct Face {
    const Picture *picture;
    fk_rect box;
};

/// Every face YuNet finds at 0.6 or more, its box made square around its centre.
std::vector<Face> faces_in(const std::string &model, const std::vector<Picture> &pictures) {
    fk_error error{};
    fk_yunet *yunet = nullptr;
    if (fk_yunet_create_on_path(model.c_str(), FK_PATH_FAST, &yunet, &error) != FK_OK) fatal(model, error);
    std::vector<Face> faces;
    for (const Picture &p : pictures) {
        for (const fk_yunet_face &face : detect(yunet, p, scale_for(p), 0, 0, 0.6f)) {
            const float side = std::max(face.box.width, face.box.height);
            faces.push_back({&p, {face.box.x + face.box.width / 2 - side / 2,
                                  face.box.y + face.box.height / 2 - side / 2 + 0.1f * side, side, side}});
        }
    }
    fk_yunet_free(yunet);
    return faces;
}

std::vector<std::vector<fk_point>> shapes(const std::string &model, int32_t path, const std::vector<Face> &faces) {
    fk_error error{};
    fk_shape_predictor *predictor = nullptr;
    if (fk_shape_predictor_create_on_path(model.c_str(), nullptr, path, &predictor, &error) != FK_OK) fatal(model, error);
    std::vector<std::vector<fk_point>> placed;
    for (const Face &face : faces) {
        std::vector<fk_point> points(68);
        if (fk_shape_predictor_predict(predictor, face.picture->image.get(), &face.box, 1, points.data(), 68, &error) != FK_OK)
            fatal(face.picture->name, error);
        placed.push_back(points);
    }
    fk_shape_predictor_free(predictor);
    return placed;
}

/// Each point within 1 px of dlib's, at most 1% of them moved at all.
void landmarks_agree(const std::vector<Face> &faces, const std::vector<std::vector<fk_point>> &ours,
                     const std::vector<std::vector<fk_point>> &theirs) {
    int moved = 0;
    float worst = 0;
    for (size_t f = 0; f < faces.size(); ++f)
        for (int i = 0; i < 68; ++i)
            if (ours[f][i].x != theirs[f][i].x || ours[f][i].y != theirs[f][i].y) {
                ++moved;
                worst = std::max({worst, std::fabs(ours[f][i].x - theirs[f][i].x), std::fabs(ours[f][i].y - theirs[f][i].y)});
            }
    expect(worst <= 1, "68 points: a point " + std::to_string(worst) + " px from dlib's");
    expect(moved <= 0.01 * 68 * faces.size(), "68 points: " + std::to_string(moved) + " of " +
                                                  std::to_string(68 * faces.size()) + " points moved");
}

/// Descriptors within 1e-4 of each other (Euclidean), a copy of the reference's handle too.
void descriptor_agrees(const std::string &model, const std::vector<Face> &faces,
                       const std::vector<std::vector<fk_point>> &shapes) {
    fk_error error{};
    fk_face_descriptor *ours = nullptr, *theirs = nullptr, *copy = nullptr;
    if (fk_face_descriptor_create_on_path(model.c_str(), FK_PATH_FAST, &ours, &error) != FK_OK ||
        fk_face_descriptor_create_on_path(model.c_str(), FK_PATH_REFERENCE, &theirs, &error) != FK_OK ||
        fk_face_descriptor_copy(theirs, &copy, &error) != FK_OK)
        fatal(model, error);
    int described = 0;
    // Four faces: a ResNet pass through dlib's own layer takes seconds under the sanitizers.
    for (size_t f = 0; f < faces.size() && described < 4; ++f) {
        float a[FK_FACE_DESCRIPTOR_LENGTH], b[FK_FACE_DESCRIPTOR_LENGTH], c[FK_FACE_DESCRIPTOR_LENGTH];
        const fk_image *image = faces[f].picture->image.get();
        if (fk_face_descriptor_compute(ours, image, shapes[f].data(), 68, a, &error) != FK_OK ||
            fk_face_descriptor_compute(theirs, image, shapes[f].data(), 68, b, &error) != FK_OK ||
            fk_face_descriptor_compute(copy, image, shapes[f].data(), 68, c, &error) != FK_OK)
            fatal(faces[f].picture->name, error);
        double distance = 0, copy_distance = 0;
        for (int i = 0; i < FK_FACE_DESCRIPTOR_LENGTH; ++i) {
            distance += double(a[i] - b[i]) * (a[i] - b[i]);
            copy_distance += double(c[i] - b[i]) * (c[i] - b[i]);
        }
        expect(std::sqrt(distance) <= 1e-4 && std::sqrt(copy_distance) <= 1e-4,
               "descriptor: " + faces[f].picture->name + ": " + std::to_string(std::sqrt(distance)) + " apart");
        ++described;
    }
    expect(described >= 3, "descriptor: too few faces to compare: " + std::to_string(described));
    fk_face_descriptor_free(ours);
    fk_face_descriptor_free(theirs);
    fk_face_descriptor_free(copy);
}

// ---- Decoding ---------------------------------------------------------------------------------

/// Every sample within 2 grey levels of OpenCV's and at most 0.1% different at all; a 16-bit
/// PNG's within 1 (libpng rounds to 8 bits where OpenCV truncates).
void same_pixels(const fk_image *a, const fk_image *b, const std::string &name, bool rounded_from_16_bits) {
    int32_t aw = 0, ah = 0, bw = 0, bh = 0;
    fk_image_get_size(a, &aw, &ah, nullptr);
    fk_image_get_size(b, &bw, &bh, nullptr);
    if (aw != bw || ah != bh) {
        expect(false, "decoding: " + name + ": sizes differ from OpenCV's");
        return;
    }
    const size_t count = size_t(aw) * ah * 3;
    std::vector<uint8_t> pa(count), pb(count);
    fk_image_copy_pixels(a, FK_PIXEL_BGR8, pa.data(), count, aw * 3, nullptr);
    fk_image_copy_pixels(b, FK_PIXEL_BGR8, pb.data(), count, bw * 3, nullptr);
    size_t different = 0;
    int worst = 0;
    for (size_t i = 0; i < count; ++i)
        if (pa[i] != pb[i]) {
            ++different;
            worst = std::max(worst, std::abs(int(pa[i]) - int(pb[i])));
        }
    if (rounded_from_16_bits) expect(worst <= 1, "decoding: " + name + ": samples up to " + std::to_string(worst) + " apart");
    else
        expect(worst <= 2 && different <= 0.001 * count,
               "decoding: " + name + ": " + std::to_string(different) + " samples differ, by up to " + std::to_string(worst));
}

void decoding_agrees(const std::vector<std::string> &paths) {
    int compared = 0;
    for (const std::string &path : paths) {
        std::ifstream file(path, std::ios::binary);
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        fk_error error{};
        fk_image *ours = nullptr, *theirs = nullptr;
        if (fk_image_create_from_encoded(bytes.data(), bytes.size(), 0, &ours, &error) != FK_OK) fatal(path, error);
        if (fk_opencv_image_decode(bytes.data(), bytes.size(), 1, &theirs, &error) != FK_OK) fatal(path, error);
        const bool sixteen = path.size() > 9 && path.compare(path.size() - 9, 9, "16bit.png") == 0;
        same_pixels(ours, theirs, path, sixteen);
        fk_image_free(ours);
        fk_image_free(theirs);
        ++compared;
        if (path.compare(path.size() - 4, 4, ".jpg") != 0) continue;
        // A JPEG read reduced by DCT scaling, as a search for large faces reads it.
        fk_image *reduced = nullptr, *theirs_reduced = nullptr;
        int32_t reduction = 0;
        if (fk_image_create_from_file_reduced(path.c_str(), 0, 150, &reduced, &reduction, &error) != FK_OK) fatal(path, error);
        if (reduction > 1) {
            if (fk_opencv_image_decode(bytes.data(), bytes.size(), reduction, &theirs_reduced, &error) != FK_OK)
                fatal(path, error);
            same_pixels(reduced, theirs_reduced, path + " at 1/" + std::to_string(reduction), false);
            fk_image_free(theirs_reduced);
        }
        fk_image_free(reduced);
    }
    expect(compared >= 8, "decoding: " + std::to_string(compared) + " images compared");
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        std::fprintf(stderr, "usage: differential REPOSITORY MODELS [SHARED_DATA]\n");
        return 64;
    }
    const std::string repository = argv[1], models = argv[2], shared = argc == 4 ? argv[3] : "";
    std::vector<std::string> shared_photos;
    if (!shared.empty())
        for (const char *folder : {"/photos/dlib-faces", "/photos/face_recognition"})
            for (const std::string &path : files_in(shared + folder, {".jpg", ".png"})) shared_photos.push_back(path);

    const std::vector<Picture> all = pictures(repository, shared_photos);
    const std::string yunet = repository + "/Sources/FaceKit/BundledModels/yunet_n_320_320.onnx";
    yunet_agrees(yunet, all);
    std::fprintf(stderr, "differential: YuNet compared on %zu pictures\n", all.size());

    const std::vector<Face> faces = faces_in(yunet, all);
    const std::string landmarks = models + "/shape_predictor_68_face_landmarks.dat";
    const auto ours = shapes(landmarks, FK_PATH_FAST, faces);
    const auto theirs = shapes(landmarks, FK_PATH_REFERENCE, faces);
    landmarks_agree(faces, ours, theirs);
    std::fprintf(stderr, "differential: 68 points compared on %zu faces\n", faces.size());
    descriptor_agrees(models + "/dlib_face_recognition_resnet_model_v1.dat", faces, ours);
    std::fprintf(stderr, "differential: face descriptor compared\n");

    std::vector<std::string> decoded{repository + "/Tests/Fixtures/astronaut.png"};
    for (const char *name : {"astronaut.jpg", "astronaut-portrait-exif6.jpg", "astronaut-3072x1536.jpg", "astronaut-gray.png",
                             "astronaut-rgba.png", "astronaut-portrait.png", "astronaut-16bit.png"})
        decoded.push_back(repository + "/Tests/Fixtures/" + name);
    decoded.insert(decoded.end(), shared_photos.begin(), shared_photos.end());
    decoding_agrees(decoded);
    std::fprintf(stderr, "differential: decoding compared on %zu images\n", decoded.size());

    if (failures) std::fprintf(stderr, "differential: %d comparisons out of tolerance\n", failures);
    return failures ? 1 : 0;
}

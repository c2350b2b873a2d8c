// dlib's MMOD CNN face detector and its C API (fk_mmod_detector).
#include "mmod_detector.hpp"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"

#include <dlib/dnn.h>
#include <dlib/opencv/cv_image.h>

#include <algorithm>
#include <cmath>
#include <istream>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

namespace {
// The network of mmod_human_face_detector.dat, as in dlib's dnn_mmod_face_detection_ex.cpp.
template <long N, typename S> using con5d = dlib::con<N, 5, 5, 2, 2, S>;
template <long N, typename S> using con5 = dlib::con<N, 5, 5, 1, 1, S>;
template <typename S>
using downsampler = dlib::relu<dlib::affine<con5d<32, dlib::relu<dlib::affine<con5d<32,
                    dlib::relu<dlib::affine<con5d<16, S>>>>>>>>>;
template <typename S> using rcon5 = dlib::relu<dlib::affine<con5<45, S>>>;
using mmod_net = dlib::loss_mmod<dlib::con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<
                 dlib::input_rgb_image_pyramid<dlib::pyramid_down<6>>>>>>>>;
}  // namespace

struct mmod_detector::network {
    mmod_net net;
};

mmod_detector::mmod_detector(const char *model_path) : net(std::make_unique<network>()) {
    fk::require(model_path != nullptr, "model_path must not be NULL");
    std::vector<char> bytes = fk::read_model_file(model_path, fk::max_dlib_model_bytes);
    fk::memory_buffer buffer(bytes);
    std::istream in(&buffer);
    try {
        dlib::deserialize(net->net, in);
    } catch (const dlib::serialization_error &e) {
        throw fk::failure(FK_MODEL_UNAVAILABLE,
                          std::string(model_path) + " is not dlib's MMOD face detector: " + e.what());
    }
}

mmod_detector::~mmod_detector() = default;

std::vector<fk_detection> mmod_detector::detect(const cv::Mat &bgr, double threshold) {
    dlib::matrix<dlib::rgb_pixel> rgb;
    dlib::assign_image(rgb, dlib::cv_image<dlib::bgr_pixel>(bgr));
    std::vector<fk_detection> found;
    for (const dlib::mmod_rect &d : net->net.process(rgb, threshold)) {
        found.push_back({{float(d.rect.left()), float(d.rect.top()), float(d.rect.width()), float(d.rect.height())},
                         float(d.detection_confidence)});
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const fk_detection &a, const fk_detection &b) { return a.score > b.score; });
    return found;
}

}  // namespace fk

struct fk_mmod_detector {
    fk::mmod_detector detector;
};

extern "C" int32_t fk_mmod_detector_create(const char *model_path, fk_mmod_detector **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        *out = new fk_mmod_detector{fk::mmod_detector(model_path)};
    });
}

extern "C" void fk_mmod_detector_free(fk_mmod_detector *detector) { const fk::native_call call; delete detector; }

extern "C" int32_t fk_mmod_detector_detect(fk_mmod_detector *detector, const fk_image *image, float threshold,
                                           fk_detection *out, int32_t capacity, int32_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(detector != nullptr && image != nullptr && count != nullptr, "NULL argument");
        fk::require(capacity >= 0 && (out != nullptr || capacity == 0), "bad output buffer");
        fk::require(std::isfinite(threshold), "threshold must be finite");
        fk::require(!image->bgr.empty(), "empty image");
        fk::require(int64_t(image->bgr.cols) * image->bgr.rows <= int64_t(FK_MMOD_MAX_PIXELS),
                    "the image must hold at most FK_MMOD_MAX_PIXELS pixels");
        auto found = detector->detector.detect(image->bgr, double(threshold));
        // The total, not the number copied, so that the caller can tell the buffer was too small.
        const int32_t total = int32_t(found.size());
        std::copy_n(found.begin(), std::min(capacity, total), out);
        *count = total;
    });
}

#pragma GCC visibility pop

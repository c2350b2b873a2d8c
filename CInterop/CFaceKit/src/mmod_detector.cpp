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
// The network of mmod_human_face_detector.dat, as in dlib's dnn_mmod_face_detection_ex.cpp, over
// dlib's whole image pyramid (each level 5/6 of the last, down to 5 px) or over one image.
template <long N, typename S> using con5d = dlib::con<N, 5, 5, 2, 2, S>;
template <long N, typename S> using con5 = dlib::con<N, 5, 5, 1, 1, S>;
template <typename S>
using downsampler = dlib::relu<dlib::affine<con5d<32, dlib::relu<dlib::affine<con5d<32,
                    dlib::relu<dlib::affine<con5d<16, S>>>>>>>>>;
template <typename S> using rcon5 = dlib::relu<dlib::affine<con5<45, S>>>;
template <typename input>
using mmod_net = dlib::loss_mmod<dlib::con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<input>>>>>>;
using pyramid_net = mmod_net<dlib::input_rgb_image_pyramid<dlib::pyramid_down<6>>>;
using level_net = mmod_net<dlib::input_rgb_image>;

/// Copies the weights of layers first ... 19 (all but the input) of `from` into `to`.
template <size_t i, typename To, typename From> void copy_layers(To &to, From &from) {
    if constexpr (i <= 19) {
        dlib::layer<i>(to).layer_details() = dlib::layer<i>(from).layer_details();
        copy_layers<i + 1>(to, from);
    }
}

fk_detection to_detection(const dlib::drectangle &r, double confidence) {
    return {{float(r.left()), float(r.top()), float(r.width()), float(r.height())}, float(confidence)};
}
}  // namespace

struct mmod_detector::network {
    pyramid_net pyramid;
    /// The same weights over one image: a few levels of the pyramid cost a fifth of all of them.
    level_net level;
};

mmod_detector::mmod_detector(const char *model_path) : net(std::make_unique<network>()) {
    fk::require(model_path != nullptr, "model_path must not be NULL");
    std::vector<char> bytes = fk::read_model_file(model_path, fk::max_dlib_model_bytes);
    fk::memory_buffer buffer(bytes);
    std::istream in(&buffer);
    try {
        dlib::deserialize(net->pyramid, in);
    } catch (const dlib::serialization_error &e) {
        throw fk::failure(FK_MODEL_UNAVAILABLE,
                          std::string(model_path) + " is not dlib's MMOD face detector: " + e.what());
    }
    // A layer sets itself up (random weights) on its first pass: one pass first, then the file's
    // weights, which later passes keep.
    net->level.loss_details() = net->pyramid.loss_details();
    dlib::matrix<dlib::rgb_pixel> blank(80, 80);
    blank = dlib::rgb_pixel(0, 0, 0);
    net->level.process(blank);
    copy_layers<1>(net->level, net->pyramid);
    // The input's mean colour, subtracted from every pixel, is the file's.
    const auto &input = dlib::input_layer(net->pyramid);
    dlib::input_layer(net->level) = dlib::input_rgb_image(input.get_avg_red(), input.get_avg_green(), input.get_avg_blue());
}

mmod_detector::~mmod_detector() = default;

std::vector<fk_detection> mmod_detector::detect(const cv::Mat &bgr, double threshold, int levels) {
    dlib::matrix<dlib::rgb_pixel> rgb;
    dlib::assign_image(rgb, dlib::cv_image<dlib::bgr_pixel>(bgr));
    std::vector<fk_detection> found;
    if (levels == 0) {
        for (const dlib::mmod_rect &d : net->pyramid.process(rgb, threshold))
            found.push_back(to_detection(d.rect, d.detection_confidence));
    } else {
        // The pyramid's first levels, each searched alone, then thinned across levels as the
        // loss layer thins one pyramid (its non-maximum suppression).
        std::vector<dlib::mmod_rect> all;  // in the image's pixels
        const dlib::pyramid_down<6> down;
        const long window = 80;  // the network's detector window
        for (int level = 0; level < levels && rgb.nr() >= window && rgb.nc() >= window; ++level) {
            for (dlib::mmod_rect d : net->level.process(rgb, threshold)) {
                d.rect = down.rect_up(dlib::drectangle(d.rect), unsigned(level));  // as dlib maps its pyramid
                all.push_back(d);
            }
            dlib::matrix<dlib::rgb_pixel> smaller;
            down(rgb, smaller);
            rgb.swap(smaller);
        }
        std::stable_sort(all.begin(), all.end(), [](const dlib::mmod_rect &a, const dlib::mmod_rect &b) {
            return a.detection_confidence > b.detection_confidence;
        });
        const auto &overlaps = net->level.loss_details().get_options().overlaps_nms;
        std::vector<dlib::rectangle> kept;
        for (const dlib::mmod_rect &d : all) {
            if (std::any_of(kept.begin(), kept.end(), [&](const dlib::rectangle &k) { return overlaps(k, d.rect); }))
                continue;
            kept.push_back(d.rect);
            found.push_back(to_detection(d.rect, d.detection_confidence));
        }
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
                                           int32_t levels, fk_detection *out, int32_t capacity, int32_t *count,
                                           fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(detector != nullptr && image != nullptr && count != nullptr, "NULL argument");
        fk::require(capacity >= 0 && (out != nullptr || capacity == 0), "bad output buffer");
        fk::require(std::isfinite(threshold), "threshold must be finite");
        fk::require(levels >= 0 && levels <= 32, "levels must be in [0, 32]");
        fk::require(!image->bgr.empty(), "empty image");
        fk::require(int64_t(image->bgr.cols) * image->bgr.rows <= int64_t(FK_MMOD_MAX_PIXELS),
                    "the image must hold at most FK_MMOD_MAX_PIXELS pixels");
        auto found = detector->detector.detect(image->bgr, double(threshold), levels);
        // The total, not the number copied, so that the caller can tell the buffer was too small.
        const int32_t total = int32_t(found.size());
        std::copy_n(found.begin(), std::min(capacity, total), out);
        *count = total;
    });
}

#pragma GCC visibility pop

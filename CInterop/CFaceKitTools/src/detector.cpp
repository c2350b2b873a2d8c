// Face detection: dlib's HOG frontal detector and its MMOD CNN detector, run at a caller-chosen
// scale so that the smallest face wanted just fits the detector's window.
#include "CFaceKitTools.h"
#include "guard.hpp"
#include "image.hpp"
#include "mmod_detector.hpp"

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv/cv_image.h>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

cv::Mat scaled(const cv::Mat &bgr, float scale) {
    if (std::abs(scale - 1.0f) < 1e-3f) return bgr;
    cv::Mat out;
    cv::resize(bgr, out, cv::Size(), scale, scale, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
    return out;
}

fk_detection to_detection(const dlib::rectangle &r, double score, float scale) {
    fk_detection d;
    d.box = {float(r.left()) / scale, float(r.top()) / scale, float(r.width()) / scale,
             float(r.height()) / scale};
    d.score = float(score);
    return d;
}

}  // namespace

struct fk_detector {
    fk_detector_kind kind;
    dlib::frontal_face_detector hog;
    std::unique_ptr<fk::mmod_detector> cnn;

    std::vector<fk_detection> detect(const cv::Mat &bgr, float scale, float threshold = 0.0f) {
        cv::Mat input = scaled(bgr, scale);
        std::vector<fk_detection> found;
        if (kind == FK_DETECTOR_HOG) {
            std::vector<dlib::rect_detection> dets;
            hog(dlib::cv_image<dlib::bgr_pixel>(input), dets, double(threshold));
            for (auto &d : dets) found.push_back(to_detection(d.rect, d.detection_confidence, scale));
        } else {
            for (fk_detection d : cnn->detect(input, double(threshold))) {
                d.box = {d.box.x / scale, d.box.y / scale, d.box.width / scale, d.box.height / scale};
                found.push_back(d);
            }
        }
        std::stable_sort(found.begin(), found.end(),
                         [](const fk_detection &a, const fk_detection &b) { return a.score > b.score; });
        return found;
    }
};

extern "C" int32_t fk_detector_create(int32_t kind, const char *model_path, fk_detector **out,
                                      fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(out != nullptr, "out must not be NULL");
        fk::require(kind == FK_DETECTOR_HOG || kind == FK_DETECTOR_CNN, "unknown detector kind");
        auto detector = std::make_unique<fk_detector>();
        detector->kind = fk_detector_kind(kind);
        if (kind == FK_DETECTOR_HOG) {
            // Building dlib's detector unpacks its compiled-in model (~0.3 s); copy one instead.
            static const dlib::frontal_face_detector prototype = dlib::get_frontal_face_detector();
            detector->hog = prototype;
        } else {
            fk::require(model_path != nullptr, "the CNN detector needs a model path");
            detector->cnn = std::make_unique<fk::mmod_detector>(model_path);
        }
        *out = detector.release();
    });
}

extern "C" void fk_detector_free(fk_detector *detector) { delete detector; }

extern "C" int32_t fk_detector_detect(fk_detector *detector, const fk_image *image, float scale,
                                      fk_detection *out, int32_t capacity, int32_t *count,
                                      fk_error *error) {
    return fk_detector_detect_above(detector, image, scale, 0.0f, out, capacity, count, error);
}

extern "C" int32_t fk_detector_detect_above(fk_detector *detector, const fk_image *image, float scale,
                                            float threshold, fk_detection *out, int32_t capacity,
                                            int32_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(detector != nullptr && image != nullptr && count != nullptr, "NULL argument");
        fk::require(capacity >= 0 && (out != nullptr || capacity == 0), "bad output buffer");
        fk::require(scale >= 0.05f && scale <= 8.0f, "scale must be in [0.05, 8]");
        fk::require(std::isfinite(threshold), "threshold must be finite");
        auto found = detector->detect(image->bgr, scale, threshold);
        // The total, not the number copied, so that the caller can tell the buffer was too small.
        int32_t total = int32_t(found.size());
        std::copy_n(found.begin(), std::min(capacity, total), out);
        *count = total;
    });
}

#pragma GCC visibility pop

// OpenCV's cascade classifier (Viola-Jones), scored as the largest group of raw detections in a
// region. Exists to measure the haarcascade_smile.xml baseline in docs/accuracy.md.
#include "CFaceKitTools.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_cascade {
    cv::CascadeClassifier classifier;  // detectMultiScale is not const: one per thread
};

namespace {

/// OpenCV's grouping tolerance in detectMultiScale (GROUP_EPS in cascadedetect.cpp).
constexpr double group_eps = 0.2;

/// region rounded to whole pixels and clipped to an image of size.
cv::Rect clipped(fk_rect region, cv::Size size) {
    const int left = int(std::lround(region.x));
    const int top = int(std::lround(region.y));
    const int right = int(std::lround(region.x + region.width));
    const int bottom = int(std::lround(region.y + region.height));
    return cv::Rect(cv::Point(left, top), cv::Point(right, bottom)) & cv::Rect(cv::Point(0, 0), size);
}

}  // namespace

extern "C" int32_t fk_cascade_create(const char *path, fk_cascade **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr, "path and out must not be NULL");
        fk::silence_native_logging();
        fk::check_model_file(path, fk::max_network_bytes);  // OpenCV's cascades are a few MB of XML
        auto cascade = std::make_unique<fk_cascade>();
        bool loaded = false;
        try {
            loaded = cascade->classifier.load(path);
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(path) + " is not a cascade: " + e.err);
        }
        if (!loaded || cascade->classifier.empty())
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(path) + " is not a cascade OpenCV can load");
        *out = cascade.release();
    });
}

extern "C" void fk_cascade_free(fk_cascade *cascade) { delete cascade; }

extern "C" int32_t fk_cascade_best_neighbours(fk_cascade *cascade, const fk_image *image, fk_rect region,
                                              float scale_factor, int32_t *neighbours, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(cascade != nullptr && image != nullptr && neighbours != nullptr, "NULL argument");
        fk::require(std::isfinite(region.x) && std::isfinite(region.y) && std::isfinite(region.width) &&
                        std::isfinite(region.height) && region.width >= 0 && region.height >= 0,
                    "region must be finite with a non-negative size");
        fk::require(std::isfinite(scale_factor) && scale_factor > 1 && scale_factor <= 4,
                    "scale_factor must be above 1 and at most 4");
        const cv::Rect area = clipped(region, image->bgr.size());
        const cv::Size window = cascade->classifier.getOriginalWindowSize();
        if (area.width < window.width || area.height < window.height) {
            *neighbours = 0;
            return;
        }
        cv::Mat grey;
        cv::cvtColor(image->bgr(area), grey, cv::COLOR_BGR2GRAY);
        cv::equalizeHist(grey, grey);
        std::vector<cv::Rect> raw;
        cascade->classifier.detectMultiScale(grey, raw, scale_factor, 0, 0, window);
        int32_t best = 0;
        if (!raw.empty()) {
            std::vector<int> labels;
            const int groups = cv::partition(raw, labels, cv::SimilarRects(group_eps));
            std::vector<int32_t> sizes(size_t(groups), 0);
            for (int label : labels) best = std::max(best, ++sizes[size_t(label)]);
        }
        *neighbours = best;
    });
}

#pragma GCC visibility pop

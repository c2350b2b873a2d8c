// Following points from one video frame to the next: OpenCV's pyramidal Lucas-Kanade optical flow
// (cv::calcOpticalFlowPyrLK), checked forward and backward.
#include "point_tracker.hpp"

#include "guard.hpp"
#include "native_logging.hpp"

#include <cmath>
#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Follows `from`, points of the first pyramid's frame, into the second's.
void flow(const fk_point_tracker &tracker, const std::vector<cv::Mat> &from_pyramid,
          const std::vector<cv::Mat> &to_pyramid, const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to,
          std::vector<uchar> &found) {
    // A point's flow stops after 20 steps, or at one under 0.03 px.
    const cv::TermCriteria stop(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 0.03);
    cv::calcOpticalFlowPyrLK(from_pyramid, to_pyramid, from, to, found, cv::noArray(), tracker.window, tracker.levels,
                             stop);
}

}  // namespace

extern "C" int32_t fk_point_tracker_create(int32_t window, int32_t levels, fk_point_tracker **out,
                                           fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(out != nullptr, "out must not be NULL");
        fk::require(window >= 5 && window <= 63 && window % 2 == 1, "window must be odd, 5 ... 63");
        fk::require(levels >= 0 && levels <= 6, "levels must be 0 ... 6");
        fk::silence_native_logging();
        auto tracker = std::make_unique<fk_point_tracker>();
        tracker->window = cv::Size(window, window);
        tracker->levels = levels;
        *out = tracker.release();
    });
}

extern "C" void fk_point_tracker_free(fk_point_tracker *tracker) { const fk::native_call call; delete tracker; }

extern "C" int32_t fk_point_tracker_push_frame(fk_point_tracker *tracker, const fk_image *frame,
                                               int32_t reduction, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(tracker != nullptr && frame != nullptr, "NULL argument");
        fk::require(reduction >= 1 && reduction <= 64, "reduction must be 1 ... 64");
        tracker->push(*frame, reduction);
    });
}

/// Forward, then back again: the distance back to the start is the error.
extern "C" int32_t fk_point_tracker_follow(fk_point_tracker *tracker, const fk_point *points, int32_t count,
                                           fk_point *out, float *fb_error, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(tracker != nullptr, "NULL tracker");
        fk::require(count >= 0 && (count == 0 || (points != nullptr && out != nullptr && fb_error != nullptr)),
                    "bad point buffers");
        fk::require(!tracker->previous.empty(), "no previous frame of the current frame's size to follow points from");
        if (count == 0) return;
        const double r = tracker->reduction;
        std::vector<cv::Point2f> start(static_cast<size_t>(count));
        std::vector<cv::Point2f> forward, backward;
        for (int32_t i = 0; i < count; ++i) {
            fk::require(std::isfinite(points[i].x) && std::isfinite(points[i].y), "points must be finite");
            start[size_t(i)] = cv::Point2f(float(points[i].x / r), float(points[i].y / r));
        }
        std::vector<uchar> found_forward, found_backward;
        flow(*tracker, tracker->previous, tracker->current, start, forward, found_forward);
        flow(*tracker, tracker->current, tracker->previous, forward, backward, found_backward);
        for (int32_t i = 0; i < count; ++i) {
            const size_t k = size_t(i);
            out[i] = {float(forward[k].x * r), float(forward[k].y * r)};
            const bool followed = found_forward[k] && found_backward[k] && std::isfinite(forward[k].x) &&
                                  std::isfinite(forward[k].y);
            fb_error[i] = followed ? float(cv::norm(backward[k] - start[k]) * r) : -1.0f;
        }
    });
}

#pragma GCC visibility pop

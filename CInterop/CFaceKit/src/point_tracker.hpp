// Following points from one video frame to the next (point_tracker.cpp): the tracker's state, and
// its forward-backward check over a flow function: FaceKit's (lucas_kanade.cpp) or OpenCV's own,
// the reference (fk::follow_opencv).
#pragma once

#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <cmath>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_point_tracker {
    /// The flow on OpenCV's calcOpticalFlowPyrLK, the reference, instead of lucas_kanade.cpp.
    bool reference = false;
    cv::Size window;
    int levels;
    /// Frame pixels per tracked pixel, as the width's reduction came out.
    double reduction = 1;
    cv::Size frame_size;
    int frame_reduction = 0;  // as asked, for the previous frame
    std::vector<cv::Mat> previous, current;  // grey pyramids (empty: no frame yet)

    void push(const fk_image &frame, int asked_reduction) {
        const cv::Mat &bgr = frame.bgr;
        cv::Mat converted;
        cv::Mat grey = frame.grey_or_convert(converted);
        double reduction_now = 1;
        if (asked_reduction > 1) {
            const int width = std::max(1, grey.cols / asked_reduction);
            reduction_now = double(grey.cols) / width;
            cv::resize(grey, grey, cv::Size(width, std::max(1, grey.rows / asked_reduction)), 0, 0, cv::INTER_AREA);
        }
        // The pyramid of two frames ago becomes this frame's storage: buildOpticalFlowPyramid
        // writes into levels of the right size in place, where fresh ones cost the kernel a
        // page-clearing fault per 4 KB.
        if (bgr.size() == frame_size && asked_reduction == frame_reduction) {
            std::swap(previous, current);
        } else {
            previous.clear();
            current.clear();
        }
        // Without the Scharr derivatives: the flow (lucas_kanade.cpp) makes them for each
        // point's window only, a fraction of the frame.
        cv::buildOpticalFlowPyramid(grey, current, window, levels, /*withDerivatives=*/false);
        frame_size = bgr.size();
        frame_reduction = asked_reduction;
        reduction = reduction_now;
    }
};

namespace fk {

/// When a point's flow stops (20 steps, or one under 0.03 px).
inline cv::TermCriteria flow_stop() { return {cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 20, 0.03}; }

/// OpenCV's own pyramidal Lucas-Kanade flow between two pyramids, as fk::follow_lucas_kanade is
/// called: the reference that FaceKit's flow (lucas_kanade.cpp) gives the bits of.
inline void follow_opencv(const std::vector<cv::Mat> &from_pyramid, const std::vector<cv::Mat> &to_pyramid,
                          const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to,
                          std::vector<uchar> &found, cv::Size window, int levels, cv::TermCriteria stop) {
    cv::calcOpticalFlowPyrLK(from_pyramid, to_pyramid, from, to, found, cv::noArray(), window, levels, stop);
}

/// fk_point_tracker_follow with `flow` following points from the first pyramid to the second, as
/// fk::follow_lucas_kanade is called: forward, then back again, the distance back to the start
/// the error.
template <class Flow>
void follow_points(fk_point_tracker *tracker, const fk_point *points, int32_t count, fk_point *out,
                   float *fb_error, Flow flow) {
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
    flow(tracker->previous, tracker->current, start, forward, found_forward, tracker->window, tracker->levels,
         flow_stop());
    flow(tracker->current, tracker->previous, forward, backward, found_backward, tracker->window, tracker->levels,
         flow_stop());
    for (int32_t i = 0; i < count; ++i) {
        const size_t k = size_t(i);
        out[i] = {float(forward[k].x * r), float(forward[k].y * r)};
        const bool followed = found_forward[k] && found_backward[k] && std::isfinite(forward[k].x) &&
                              std::isfinite(forward[k].y);
        fb_error[i] = followed ? float(cv::norm(backward[k] - start[k]) * r) : -1.0f;
    }
}

}  // namespace fk

#pragma GCC visibility pop

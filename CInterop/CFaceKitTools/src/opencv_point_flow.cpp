// Following points with OpenCV's own Lucas-Kanade flow: the reference that FaceKit's
// (lucas_kanade.cpp, in fk_point_tracker_follow) must match bit for bit.
#include "CFaceKitTools.h"
#include "point_tracker.hpp"

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_opencv_point_tracker_follow(fk_point_tracker *tracker, const fk_point *points, int32_t count,
                                                  fk_point *out, float *fb_error, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::follow_points(tracker, points, count, out, fb_error,
                          [](const std::vector<cv::Mat> &from_pyramid, const std::vector<cv::Mat> &to_pyramid,
                             const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to,
                             std::vector<uchar> &found, cv::Size window, int levels, cv::TermCriteria stop) {
                              cv::calcOpticalFlowPyrLK(from_pyramid, to_pyramid, from, to, found, cv::noArray(), window,
                                                       levels, stop);
                          });
    });
}

#pragma GCC visibility pop

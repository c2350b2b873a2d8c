// Pyramidal Lucas-Kanade optical flow: what cv::calcOpticalFlowPyrLK computes, to the last bit,
// with the points followed side by side (lucas_kanade.cpp).
#pragma once

#include <opencv2/core.hpp>

#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// cv::calcOpticalFlowPyrLK(previous, next, from, to, status, cv::noArray(), window, max_level,
/// criteria) for one-channel pyramids that cv::buildOpticalFlowPyramid made without derivatives
/// (flags 0, the default smallest eigenvalue): the same `to` and `status`, bit for bit, as
/// OpenCV 4.6's SSE2 build gives. The first image's Scharr derivatives are made for each
/// point's window only, not for whole levels. Each point's sums are taken in OpenCV's order;
/// what differs is that the points go through each step together, so that the long chains of
/// additions, which OpenCV runs one point after another, overlap (see lucas_kanade.cpp).
void follow_lucas_kanade(const std::vector<cv::Mat> &previous, const std::vector<cv::Mat> &next,
                         const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to,
                         std::vector<uchar> &status, cv::Size window, int max_level, cv::TermCriteria criteria);

}  // namespace fk

#pragma GCC visibility pop

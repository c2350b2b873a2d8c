// Following points from one video frame to the next (point_tracker.cpp): the tracker's state, the
// grey pyramids of the last two frames that OpenCV's calcOpticalFlowPyrLK follows points between.
#pragma once

#include "CFaceKit.h"
#include "image.hpp"

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <algorithm>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_point_tracker {
    cv::Size window;
    int levels;
    /// Frame pixels per tracked pixel, as the width's reduction came out.
    double reduction = 1;
    cv::Size frame_size;
    int frame_reduction = 0;  // as asked, for the previous frame
    /// Grey pyramids, each level followed by its Scharr derivatives (empty: no frame yet).
    std::vector<cv::Mat> previous, current;

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
        // With the Scharr derivatives, made here once per frame: calcOpticalFlowPyrLK, given a
        // pyramid without them, makes them itself in each call, over every level of the pyramid it
        // follows points from, and each face followed costs two calls (forward from the previous
        // frame, back from the current one). The points come out the same either way.
        cv::buildOpticalFlowPyramid(grey, current, window, levels, /*withDerivatives=*/true);
        frame_size = bgr.size();
        frame_reduction = asked_reduction;
        reduction = reduction_now;
    }
};

#pragma GCC visibility pop

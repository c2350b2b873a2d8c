// The definition behind the opaque fk_image handle, shared by the shim's source files.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_image {
    cv::Mat bgr;   // CV_8UC3, upright
    cv::Mat grey;  // CV_8UC1, bgr made grey ahead (video frames, on the decoding thread), or empty

    /// bgr in grey: `grey` when it was made ahead, else converted into `scratch`.
    const cv::Mat &grey_or_convert(cv::Mat &scratch) const {
        if (!grey.empty()) return grey;
        cv::cvtColor(bgr, scratch, cv::COLOR_BGR2GRAY);
        return scratch;
    }
};

#pragma GCC visibility pop

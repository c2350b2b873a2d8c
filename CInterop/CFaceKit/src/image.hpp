// The definition behind the opaque fk_image handle, shared by the shim's source files.
#pragma once

#include <opencv2/core.hpp>

struct fk_image {
    cv::Mat bgr;  // CV_8UC3, upright
};

// OpenCV's own logging, silenced once for the whole process: the shim reports every failure
// with its subject instead, and OpenCV's lines on stderr would interleave with FaceKit's.
#pragma once

#include <opencv2/core/utils/logger.hpp>

#include <mutex>

namespace fk {

inline void silence_opencv_logging() {
    static std::once_flag once;
    std::call_once(once, [] { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT); });
}

}  // namespace fk

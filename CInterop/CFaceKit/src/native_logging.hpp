// OpenCV's and FFmpeg's own logging, silenced once for the whole process: the shim reports every
// failure with its subject instead, and their lines on stderr would interleave with FaceKit's.
#pragma once

#include <opencv2/core/utils/logger.hpp>

#include <cstdlib>
#include <mutex>

namespace fk {

/// Sets OpenCV's log level to silent and OPENCV_FFMPEG_LOGLEVEL to -8 (AV_LOG_QUIET; OpenCV's
/// FFmpeg backend reads it when it opens a file, and so keeps FFmpeg's "moov atom not found" off
/// stderr), both exactly once per process. Every entry point that reaches OpenCV calls this
/// first. Once, because setenv while another thread reads the environment (getenv in OpenCV,
/// FFmpeg, BLAS) is undefined behaviour: after the first call the environment is only read. A
/// value the user set is kept.
inline void silence_native_logging() {
    static std::once_flag once;
    std::call_once(once, [] {
        ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    });
}

}  // namespace fk

// OpenCV's own logging, silenced once for the whole process: the shim reports every failure with
// its subject instead, and its lines on stderr would interleave with FaceKit's. (FFmpeg's log is
// ffmpeg_log.cpp's: it counts errors per video and prints nothing.)
#pragma once

#include <opencv2/core/utils/logger.hpp>

#include <cstdlib>
#include <iostream>
#include <mutex>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Sets OpenCV's log level to silent, once per process. Every entry point that reaches OpenCV
/// calls this first.
inline void silence_native_logging() {
    static std::once_flag once;
    std::call_once(once, [] { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT); });
}

/// Keeps std::cerr quiet while it lives: cv::imdecode writes "imdecode_(''): can't read data:
/// ..." straight to std::cerr (not through its logger) when a BMP, TIFF or PPM header promises
/// more data than the file holds, and FaceKit already names that file with its reason. Threads
/// decoding at once share one silence: the first to enter points std::cerr at nothing, the last
/// to leave restores it, so no decode waits for another. FaceKit's own messages do not go
/// through std::cerr.
class QuietStandardError {
public:
    QuietStandardError() {
        std::lock_guard<std::mutex> lock(mutex());
        if (users()++ == 0) saved() = std::cerr.rdbuf(nullptr);
    }
    ~QuietStandardError() {
        std::lock_guard<std::mutex> lock(mutex());
        if (--users() == 0) {
            std::cerr.rdbuf(saved());
            std::cerr.clear();  // writes to no buffer set badbit
        }
    }
    QuietStandardError(const QuietStandardError &) = delete;
    QuietStandardError &operator=(const QuietStandardError &) = delete;

private:
    static std::mutex &mutex() { static std::mutex m; return m; }
    static int &users() { static int n = 0; return n; }
    static std::streambuf *&saved() { static std::streambuf *b = nullptr; return b; }
};

}  // namespace fk

#pragma GCC visibility pop

// Video writing through OpenCV's FFmpeg backend (cv::VideoWriter).
#include "CFaceKit.h"
#include "ffmpeg_log.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"

#include <opencv2/videoio.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

struct fk_video_writer {
    cv::VideoWriter writer;
    std::string path;
    int32_t width = 0;
    int32_t height = 0;
    bool finished = false;
};

namespace {

/// Creates (or truncates) path with the permissions a shell redirection gives, so that a path
/// that cannot be written is reported with the system's reason rather than FFmpeg's silence.
void check_creatable(const char *path) {
    struct stat st {};
    if (::stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        throw fk::failure(FK_FILE_UNWRITABLE, "cannot create the file: it is a folder");
    int descriptor = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (descriptor < 0)
        throw fk::failure(FK_FILE_UNWRITABLE, std::string("cannot create the file: ") + std::strerror(errno));
    ::close(descriptor);
}

/// Points the process's stderr at /dev/null while it lives. OpenCV's FFmpeg backend prints
/// some warnings with fprintf(stderr) ("tag ... is not supported with codec id ..." for every
/// WebM file, "tag ... is not found" for an unknown code), which no log level silences; failures
/// are reported through fk_error instead. One at a time, so the saved descriptor stays right.
class QuietStderr {
public:
    QuietStderr() : lock_(mutex()) {
        std::fflush(stderr);
        saved_ = ::dup(STDERR_FILENO);
        int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (saved_ >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
        if (null >= 0) ::close(null);
    }
    ~QuietStderr() {
        std::fflush(stderr);
        if (saved_ >= 0) {
            ::dup2(saved_, STDERR_FILENO);
            ::close(saved_);
        }
    }
    QuietStderr(const QuietStderr &) = delete;
    QuietStderr &operator=(const QuietStderr &) = delete;

private:
    static std::mutex &mutex() {
        static std::mutex m;
        return m;
    }
    std::lock_guard<std::mutex> lock_;
    int saved_ = -1;
};

}  // namespace

extern "C" int32_t fk_video_writer_create(const char *path, const char *fourcc, double fps, int32_t width,
                                          int32_t height, fk_video_writer **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && fourcc != nullptr && out != nullptr, "path, fourcc and out must not be NULL");
        fk::require(std::strlen(fourcc) == 4, "fourcc must be exactly 4 characters");
        fk::require(std::isfinite(fps) && fps > 0 && fps <= 1000, "fps must be in (0, 1000]");
        // OpenCV rounds odd sizes down to even: a side of 1 px would be 0.
        fk::require(width >= 2 && height >= 2 && width <= 16384 && height <= 16384,
                    "width and height must be in 2 ... 16384");
        // FFmpeg's own messages ("tag ... is not supported") would reach stderr.
        fk::silence_native_logging();
        check_creatable(path);
        auto video = std::make_unique<fk_video_writer>();
        video->path = path;
        video->width = width;
        video->height = height;
        bool opened = false;
        try {
            QuietStderr quiet;
            opened = video->writer.open(path, cv::CAP_FFMPEG,
                                        cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]), fps,
                                        cv::Size(width, height), true);
        } catch (const cv::Exception &) {
            opened = false;
        }
        // OpenCV set its own log callback at the open: the reader's damage counting needs FaceKit's.
        fk::listen_to_ffmpeg_log();
        if (!opened) {
            ::unlink(path);
            throw fk::failure(FK_INVALID_ARGUMENT, std::string("FFmpeg cannot encode '") + fourcc +
                                                       "' into this file's container");
        }
        *out = video.release();
    });
}

extern "C" int32_t fk_video_writer_write(fk_video_writer *writer, const fk_image *frame, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(writer != nullptr && frame != nullptr, "writer and frame must not be NULL");
        fk::require(!writer->finished, "the video is already finished");
        fk::require(frame->bgr.cols == writer->width && frame->bgr.rows == writer->height,
                    "the frame's size differs from the video's");
        try {
            writer->writer.write(frame->bgr);
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_INTERNAL, std::string("encoding a frame failed: ") + e.err);
        }
    });
}

extern "C" int32_t fk_video_writer_finish(fk_video_writer *writer, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(writer != nullptr, "writer must not be NULL");
        if (writer->finished) return;
        writer->finished = true;
        try {
            writer->writer.release();
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_INTERNAL, std::string("completing the file failed: ") + e.err);
        }
        struct stat st {};
        if (::stat(writer->path.c_str(), &st) != 0 || st.st_size == 0)
            throw fk::failure(FK_FILE_UNWRITABLE, "the file is missing or empty after writing");
    });
}

extern "C" void fk_video_writer_free(fk_video_writer *writer) {
    if (writer == nullptr) return;
    try {
        if (!writer->finished) writer->writer.release();
    } catch (...) {
    }
    delete writer;
}

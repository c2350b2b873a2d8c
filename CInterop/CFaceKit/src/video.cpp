// Sequential video reading through OpenCV's FFmpeg backend.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/videoio.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

struct fk_video {
    cv::VideoCapture capture;
    fk_video_info info{};
    int64_t next_index = 0;
};

namespace {

/// Only a regular file is opened (a named pipe would block FFmpeg's open forever).
void check_readable(const char *path) {
    if (fk::check_regular_file(path) == 0) throw fk::failure(FK_NOT_A_VIDEO, "empty file");
}

}  // namespace

extern "C" int32_t fk_video_open(const char *path, fk_video **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr, "path and out must not be NULL");
        // FFmpeg's own messages ("moov atom not found") would reach stderr; OpenCV reads this
        // variable once, at its first FFmpeg use, and then keeps FFmpeg quiet (AV_LOG_QUIET).
        ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        check_readable(path);
        auto video = std::make_unique<fk_video>();
        bool opened = false;
        try {
            opened = video->capture.open(path, cv::CAP_FFMPEG);
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_NOT_A_VIDEO, std::string("cannot open: ") + e.err);
        }
        if (!opened) throw fk::failure(FK_NOT_A_VIDEO, "no video stream FFmpeg can decode");
        auto &c = video->capture;
        // Frames come out upright; with this set, OpenCV also reports the upright width and
        // height (sides swapped for a quarter turn), so nothing more to do here.
        c.set(cv::CAP_PROP_ORIENTATION_AUTO, 1);
        video->info.width = int32_t(c.get(cv::CAP_PROP_FRAME_WIDTH));
        video->info.height = int32_t(c.get(cv::CAP_PROP_FRAME_HEIGHT));
        double fps = c.get(cv::CAP_PROP_FPS);
        video->info.fps = std::isfinite(fps) && fps > 0 ? fps : 0;
        double count = c.get(cv::CAP_PROP_FRAME_COUNT);
        video->info.frame_count = std::isfinite(count) && count > 0 ? int64_t(count) : 0;
        if (video->info.width <= 0 || video->info.height <= 0)
            throw fk::failure(FK_NOT_A_VIDEO, "no video stream with a frame size");
        *out = video.release();
    });
}

extern "C" void fk_video_free(fk_video *video) { delete video; }

extern "C" int32_t fk_video_get_info(const fk_video *video, fk_video_info *out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr && out != nullptr, "NULL argument");
        *out = video->info;
    });
}

extern "C" int32_t fk_video_next(fk_video *video, int32_t decode, fk_image **frame, int64_t *index,
                                 double *timestamp_ms, int32_t *ended, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr && index != nullptr && timestamp_ms != nullptr && ended != nullptr,
                    "NULL argument");
        fk::require(!decode || frame != nullptr, "frame must not be NULL when decoding");
        if (frame != nullptr) *frame = nullptr;
        auto &c = video->capture;
        bool ok = false;
        try {
            ok = c.grab();
        } catch (const cv::Exception &) {
            ok = false;
        }
        cv::Mat image;
        if (ok && decode) {
            try {
                ok = c.retrieve(image) && !image.empty();
            } catch (const cv::Exception &) {
                ok = false;
            }
        }
        if (!ok) {
            *ended = 1;
            return;
        }
        *ended = 0;
        *index = video->next_index++;
        double ms = c.get(cv::CAP_PROP_POS_MSEC);
        if (!std::isfinite(ms) || (ms <= 0 && *index > 0 && video->info.fps > 0))
            ms = double(*index) * 1000.0 / video->info.fps;  // containers without timestamps
        *timestamp_ms = ms;
        if (decode) {
            if (image.type() != CV_8UC3) throw fk::failure(FK_INTERNAL, "unexpected frame type");
            *frame = new fk_image{image};
        }
    });
}

// Sequential video reading through OpenCV's FFmpeg backend, one frame read ahead on a thread of
// its own so that decoding the next frame overlaps the caller's work on this one.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"

#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace {

/// One frame as the capture gave it: grabbed or not (the end, or data that stops decoding), its
/// presentation time, and its pixels when it was decoded.
struct grabbed_frame {
    bool ok = false;
    bool decoded = false;
    cv::Mat image;
    double position_ms = 0;
};

/// Advances `capture` by one frame, decoding it when `decode` is set. OpenCV's exceptions mean
/// the data stops decoding here, like a failed grab.
grabbed_frame grab(cv::VideoCapture &capture, bool decode) {
    grabbed_frame frame;
    try {
        frame.ok = capture.grab();
        if (frame.ok) frame.position_ms = capture.get(cv::CAP_PROP_POS_MSEC);
        if (frame.ok && decode) {
            frame.ok = capture.retrieve(frame.image) && !frame.image.empty();
            frame.decoded = true;
        }
    } catch (const cv::Exception &) {
        frame.ok = false;
    }
    return frame;
}

/// Grabs the next frame on a worker thread while the caller works on the current one. The
/// capture is touched by one thread at a time: the worker while a grab is in flight, the caller
/// only after `wait()` returned.
class read_ahead {
  public:
    explicit read_ahead(cv::VideoCapture &capture) : capture_(capture), worker_([this] { run(); }) {}
    ~read_ahead() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        worker_.join();
    }
    read_ahead(const read_ahead &) = delete;
    read_ahead &operator=(const read_ahead &) = delete;

    /// Starts grabbing the next frame (decoding it when `decode` is set).
    void start(bool decode) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            decode_ = decode;
            requested_ = true;
        }
        changed_.notify_all();
    }

    /// The frame started by `start`, once grabbed; rethrows what the grab threw (other than
    /// OpenCV's exceptions, which end the stream).
    grabbed_frame wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !requested_; });
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
        return std::move(result_);
    }

  private:
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            changed_.wait(lock, [this] { return requested_ || stopping_; });
            if (stopping_) return;
            const bool decode = decode_;
            lock.unlock();
            grabbed_frame frame;
            std::exception_ptr failure;
            try {
                frame = grab(capture_, decode);
            } catch (...) {
                failure = std::current_exception();
            }
            lock.lock();
            result_ = std::move(frame);
            failure_ = failure;
            requested_ = false;
            changed_.notify_all();
        }
    }

    cv::VideoCapture &capture_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool requested_ = false;
    bool stopping_ = false;
    bool decode_ = false;
    grabbed_frame result_;
    std::exception_ptr failure_;
    std::thread worker_;  // last: starts once the members it uses exist
};

}  // namespace

struct fk_video {
    cv::VideoCapture capture;
    fk_video_info info{};
    int64_t next_index = 0;
    bool ended = false;
    /// Times handed out so far (see presentation_time): the last, the gap before it, and the
    /// shift that puts a first frame reported before the stream's start at 0.
    double last_ms = 0, last_gap_ms = 0, shift_ms = 0;
    std::unique_ptr<read_ahead> reader;  // created at the first frame; joined before capture closes
    ~fk_video() { reader.reset(); }
};

namespace {

/// The time of frame `index`, which the capture reported at `reported_ms`, relative to the first
/// frame and never earlier than the frame before. OpenCV reports a frame of an edit-listed MOV
/// before the stream's start (-16.667 ms where ffprobe says 0), and the last frames of a
/// variable-frame-rate video, which FFmpeg hands out while draining the decoder without a packet
/// time, from an average frame rate (1756.9 ms after 1766.7): such a frame is placed one gap after
/// the frame before, the gap between the two before it.
double presentation_time(fk_video &video, int64_t index, double reported_ms) {
    double ms = reported_ms;
    if (!std::isfinite(ms) || (ms <= 0 && index > 0 && video.info.fps > 0))
        ms = double(index) * 1000.0 / video.info.fps;  // containers without timestamps
    if (index == 0) video.shift_ms = std::isfinite(ms) && ms < 0 ? -ms : 0;
    ms = std::isfinite(ms) ? ms + video.shift_ms : 0;
    if (index > 0 && ms < video.last_ms) {
        const double gap = video.last_gap_ms > 0 ? video.last_gap_ms : video.info.fps > 0 ? 1000.0 / video.info.fps : 1;
        ms = video.last_ms + gap;
    }
    if (index > 0) video.last_gap_ms = ms - video.last_ms;
    video.last_ms = ms;
    return ms;
}

/// Only a regular file is opened (a named pipe would block FFmpeg's open forever).
void check_readable(const char *path) {
    if (fk::check_regular_file(path) == 0) throw fk::failure(FK_NOT_A_VIDEO, "empty file");
}

}  // namespace

extern "C" int32_t fk_video_open(const char *path, fk_video **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr, "path and out must not be NULL");
        // FFmpeg's own messages ("moov atom not found") would reach stderr.
        fk::silence_native_logging();
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
        // Out-parameters are written only at the end: a call that fails leaves them untouched.
        auto at_end = [&] {
            if (frame != nullptr) *frame = nullptr;
            *ended = 1;
        };
        if (video->ended) return at_end();
        // The frame grabbed ahead was decoded as the previous call asked; decode it now if this
        // call wants pixels the read-ahead did not take (the capture is idle after wait()).
        if (!video->reader) {
            video->reader = std::make_unique<read_ahead>(video->capture);
            video->reader->start(decode != 0);
        }
        grabbed_frame grabbed = video->reader->wait();
        if (grabbed.ok && decode && !grabbed.decoded) {
            try {
                grabbed.ok = video->capture.retrieve(grabbed.image) && !grabbed.image.empty();
            } catch (const cv::Exception &) {
                grabbed.ok = false;
            }
        }
        if (!grabbed.ok) {
            video->ended = true;
            return at_end();
        }
        video->reader->start(decode != 0);
        const int64_t frame_index = video->next_index++;
        const double ms = presentation_time(*video, frame_index, grabbed.position_ms);
        std::unique_ptr<fk_image> image;
        if (decode) {
            if (grabbed.image.type() != CV_8UC3) throw fk::failure(FK_INTERNAL, "unexpected frame type");
            image = std::make_unique<fk_image>(fk_image{grabbed.image});
        }
        *ended = 0;
        *index = frame_index;
        *timestamp_ms = ms;
        if (frame != nullptr) *frame = image.release();
    });
}

// Sequential video reading through OpenCV's FFmpeg backend, one frame read ahead on a thread of
// its own so that decoding the next frame overlaps the caller's work on this one.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"

#include <opencv2/videoio.hpp>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/log.h>
}

#include <atomic>

#include <algorithm>
#include <chrono>
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
    /// How long the grab took: a live source's failed grab that lasted its read timeout stalled.
    double seconds = 0;
};

/// Errors FFmpeg logged, for the whole process: FFmpeg has one log callback, and a decoder that
/// conceals damage (grey or smeared blocks) says so only there.
std::atomic<uint64_t> ffmpeg_errors{0};
/// Videos open now, and opened ever: errors are a video's only while it is the one open.
std::atomic<int> open_videos{0};
std::atomic<uint64_t> videos_opened{0};

void count_ffmpeg_errors(void *, int level, const char *, va_list) {
    if (level <= AV_LOG_ERROR) ffmpeg_errors.fetch_add(1, std::memory_order_relaxed);
}

/// Takes FFmpeg's log over after an open: OpenCV's FFmpeg backend sets its own callback and the
/// level OPENCV_FFMPEG_LOGLEVEL names (quiet: see native_logging.hpp) at every open, which keeps
/// the open's own complaints off stderr; from then on nothing is printed either (FaceKit names
/// the damage itself), and errors are counted.
void listen_to_ffmpeg_errors() {
    av_log_set_callback(count_ffmpeg_errors);
    av_log_set_level(AV_LOG_ERROR);
}

/// Advances `capture` by one frame, decoding it when `decode` is set. OpenCV's exceptions mean
/// the data stops decoding here, like a failed grab.
grabbed_frame grab(cv::VideoCapture &capture, bool decode) {
    grabbed_frame frame;
    const auto started = std::chrono::steady_clock::now();
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
    frame.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
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
        if (worker_.joinable()) worker_.join();
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

    /// The frame started by `start`, once grabbed, or no frame once interrupt() was called or
    /// (with `timeout_seconds` > 0) when none came in that time, which sets `timed_out`; rethrows
    /// what the grab threw (other than OpenCV's exceptions, which end the stream).
    grabbed_frame wait(double timeout_seconds, bool &timed_out) {
        std::unique_lock<std::mutex> lock(mutex_);
        const auto ready = [this] { return !requested_ || interrupted_; };
        timed_out = false;
        if (timeout_seconds > 0) {
            timed_out = !changed_.wait_for(lock, std::chrono::duration<double>(timeout_seconds), ready);
        } else {
            changed_.wait(lock, ready);
        }
        if (interrupted_ || timed_out) return grabbed_frame{};
        if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
        return std::move(result_);
    }

    /// Makes wait() return at once, now and from now on, even while a grab is blocked on a
    /// source that sends nothing. Safe from any thread.
    void interrupt() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            interrupted_ = true;
        }
        changed_.notify_all();
    }

    /// Whether a grab is still running (blocked in the capture, after an interrupt or a timeout).
    bool busy() {
        std::lock_guard<std::mutex> lock(mutex_);
        return requested_;
    }

    /// Lets the worker finish on its own instead of joining it (see ~fk_video).
    void abandon() { worker_.detach(); }

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
    bool interrupted_ = false;
    bool decode_ = false;
    grabbed_frame result_;
    std::exception_ptr failure_;
    std::thread worker_;  // last: starts once the members it uses exist
};

}  // namespace

struct fk_video {
    std::unique_ptr<cv::VideoCapture> capture = std::make_unique<cv::VideoCapture>();
    fk_video_info info{};
    int64_t next_index = 0;
    bool ended = false;
    /// A camera, stream or pipe: a failed grab that took read_timeout_seconds is a stall.
    bool live = false;
    double read_timeout_seconds = 0;
    fk_video_end end = FK_VIDEO_END_OF_STREAM;
    /// Whether the last frame came only after a wait as long as the read timeout.
    bool waited_out = false;
    /// Frames handed out after FFmpeg logged errors since the frame before: how many, the first
    /// and the last. Its decoding threads run ahead of the frames handed out, so the frames are
    /// those around the damage, not always the damaged ones themselves.
    int64_t damaged_frames = 0, first_damaged = -1, last_damaged = -1;
    uint64_t errors_seen = ffmpeg_errors.load(std::memory_order_relaxed);
    uint64_t opens_seen = 0;
    bool counted_open = false;
    /// fk_video_interrupt may come from another thread at any time, the first frame included.
    std::mutex interrupt_mutex;
    bool interrupt_requested = false;
    /// Times handed out so far (see presentation_time): the last, the gap before it, and the
    /// shift that puts a first frame reported before the stream's start at 0.
    double last_ms = 0, last_gap_ms = 0, shift_ms = 0;
    std::unique_ptr<read_ahead> reader;  // created at the first frame; joined before capture closes
    ~fk_video() {
        if (counted_open) open_videos.fetch_sub(1);
        // A live source interrupted or stalled while its grab waits for data would hold the
        // caller until data comes (a pipe's read never times out): the worker is left to finish
        // on its own, with the capture it uses (the memory is given up, not freed under it).
        if (reader && end != FK_VIDEO_END_OF_STREAM && reader->busy()) {
            reader->abandon();
            (void)reader.release();
            (void)capture.release();
            return;
        }
        reader.reset();
    }
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

/// Counts `video` among the open ones, from now on: the errors logged so far (its open's own
/// among them) are not its frames'.
void count_open(fk_video &video) {
    open_videos.fetch_add(1);
    video.counted_open = true;
    video.opens_seen = videos_opened.fetch_add(1) + 1;
    video.errors_seen = ffmpeg_errors.load(std::memory_order_relaxed);
}

/// Whether grabbing `frame` took about the live source's read timeout: the source sent nothing.
bool waited_out(const fk_video &video, const grabbed_frame &frame) {
    return video.live && frame.seconds >= 0.9 * video.read_timeout_seconds;
}

/// Only a regular file is opened (a named pipe would block FFmpeg's open forever).
void check_readable(const char *path) {
    if (fk::check_regular_file(path) == 0) throw fk::failure(FK_NOT_A_VIDEO, "empty file");
}

}  // namespace

namespace {

/// Reads the opened capture's size, rate and count into video.info.
void read_info(fk_video &video) {
    auto &c = *video.capture;
    // Frames come out upright; with this set, OpenCV also reports the upright width and
    // height (sides swapped for a quarter turn), so nothing more to do here.
    c.set(cv::CAP_PROP_ORIENTATION_AUTO, 1);
    video.info.width = int32_t(c.get(cv::CAP_PROP_FRAME_WIDTH));
    video.info.height = int32_t(c.get(cv::CAP_PROP_FRAME_HEIGHT));
    double fps = c.get(cv::CAP_PROP_FPS);
    video.info.fps = std::isfinite(fps) && fps > 0 && fps < 1000 ? fps : 0;
    // A live source has no count (FFmpeg reports nonsense such as -3e15 for a UDP stream).
    double count = c.get(cv::CAP_PROP_FRAME_COUNT);
    video.info.frame_count = !video.live && std::isfinite(count) && count > 0 ? int64_t(count) : 0;
    if (video.info.width <= 0 || video.info.height <= 0)
        throw fk::failure(FK_NOT_A_VIDEO, "no video stream with a frame size");
}

}  // namespace

namespace {

/// The container's duration in milliseconds, as FFmpeg reads it from the headers (edit lists
/// applied), or 0 when it does not say. OpenCV's frame count alone cannot tell a video that
/// stopped decoding from one whose count is an estimate (a variable frame rate) or counts frames
/// an edit list hides.
double container_duration_ms(const char *path) {
    AVFormatContext *context = nullptr;
    if (avformat_open_input(&context, path, nullptr, nullptr) != 0) return 0;
    double ms = 0;
    if (context->duration != AV_NOPTS_VALUE && context->duration > 0) ms = double(context->duration) / AV_TIME_BASE * 1000;
    // Frames' times count from the first frame, and a Matroska file that starts late (0.5 s)
    // gives its duration from 0: the time after the first video packet is what they can reach.
    // (The start time FFmpeg would give needs its stream probe, which decodes.)
    AVPacket *packet = ms > 0 ? av_packet_alloc() : nullptr;
    for (int read = 0; packet != nullptr && read < 100 && av_read_frame(context, packet) >= 0; ++read) {
        const AVStream *stream = context->streams[packet->stream_index];
        const int64_t time = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
        const bool video = stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO;
        av_packet_unref(packet);
        if (!video || time == AV_NOPTS_VALUE) continue;
        const double start_ms = double(time) * av_q2d(stream->time_base) * 1000;
        if (start_ms > 0 && start_ms < ms) ms -= start_ms;
        break;
    }
    av_packet_free(&packet);
    avformat_close_input(&context);
    return ms;
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
            opened = video->capture->open(path, cv::CAP_FFMPEG);
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_NOT_A_VIDEO, std::string("cannot open: ") + e.err);
        }
        if (!opened) throw fk::failure(FK_NOT_A_VIDEO, "no video stream FFmpeg can decode");
        listen_to_ffmpeg_errors();
        read_info(*video);
        video->info.duration_ms = container_duration_ms(path);
        count_open(*video);
        *out = video.release();
    });
}

extern "C" int32_t fk_video_open_live(const char *source, int32_t kind, int32_t timeout_ms,
                                      int32_t open_timeout_ms, fk_video **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(source != nullptr && out != nullptr, "source and out must not be NULL");
        fk::require(kind == FK_LIVE_STANDARD_INPUT || kind == FK_LIVE_URL || kind == FK_LIVE_DEVICE, "unknown kind");
        fk::require(timeout_ms > 0 && open_timeout_ms > 0, "timeouts must be positive");
        fk::silence_native_logging();
        auto video = std::make_unique<fk_video>();
        video->live = true;
        video->read_timeout_seconds = timeout_ms / 1000.0;
        bool opened = false;
        try {
            if (kind == FK_LIVE_DEVICE) {
                // V4L2 directly: FFmpeg would need its input format named to open a camera.
                opened = video->capture->open(source, cv::CAP_V4L2);
            } else {
                // FFmpeg reads standard input as its "pipe:0" protocol; the timeouts end an open
                // or a read that waits longer for data (OpenCV's interrupt callback).
                const std::vector<int> timeouts = {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, int(open_timeout_ms),
                                                   cv::CAP_PROP_READ_TIMEOUT_MSEC, int(timeout_ms)};
                opened = video->capture->open(kind == FK_LIVE_STANDARD_INPUT ? "pipe:0" : source, cv::CAP_FFMPEG, timeouts);
            }
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_NOT_A_VIDEO, std::string("cannot open: ") + e.err);
        }
        if (!opened)
            throw fk::failure(FK_NOT_A_VIDEO, kind == FK_LIVE_DEVICE ? "no camera that V4L2 can read"
                                                                     : "no video stream FFmpeg can decode within the timeout");
        if (kind != FK_LIVE_DEVICE) listen_to_ffmpeg_errors();
        read_info(*video);
        count_open(*video);
        *out = video.release();
    });
}

extern "C" int32_t fk_video_get_damage(const fk_video *video, int64_t *frames, int64_t *first, int64_t *last,
                                       fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr && frames != nullptr && first != nullptr && last != nullptr, "NULL argument");
        *frames = video->damaged_frames;
        *first = video->first_damaged;
        *last = video->last_damaged;
    });
}

extern "C" int32_t fk_video_interrupt(fk_video *video, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr, "NULL argument");
        std::lock_guard<std::mutex> lock(video->interrupt_mutex);
        video->interrupt_requested = true;
        if (video->reader) video->reader->interrupt();
    });
}

extern "C" int32_t fk_video_get_end(const fk_video *video, fk_video_end *out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr && out != nullptr, "NULL argument");
        *out = video->end;
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
        {
            std::lock_guard<std::mutex> lock(video->interrupt_mutex);
            if (!video->reader) {
                video->reader = std::make_unique<read_ahead>(*video->capture);
                if (video->interrupt_requested) video->reader->interrupt();
                video->reader->start(decode != 0);
            }
        }
        // A pipe's read blocks without end, OpenCV's read timeout notwithstanding: a live
        // source's wait is bounded here.
        bool timed_out = false;
        grabbed_frame grabbed = video->reader->wait(video->live ? video->read_timeout_seconds : 0, timed_out);
        if (grabbed.ok && decode && !grabbed.decoded) {
            try {
                grabbed.ok = video->capture->retrieve(grabbed.image) && !grabbed.image.empty();
            } catch (const cv::Exception &) {
                grabbed.ok = false;
            }
        }
        if (!grabbed.ok) {
            video->ended = true;
            std::lock_guard<std::mutex> lock(video->interrupt_mutex);
            if (video->interrupt_requested) {
                video->end = FK_VIDEO_END_INTERRUPTED;
            } else if (timed_out || video->waited_out || waited_out(*video, grabbed)) {
                video->end = FK_VIDEO_END_STALLED;
            }
            return at_end();
        }
        // OpenCV ends a read that timed out by flushing the decoder: the frame it still held
        // comes out after the wait, and the failure only on the grab after.
        video->waited_out = waited_out(*video, grabbed);
        video->reader->start(decode != 0);
        const int64_t frame_index = video->next_index++;
        // FFmpeg's errors name no video: they are this one's only if no other was open since.
        const uint64_t errors = ffmpeg_errors.load(std::memory_order_relaxed);
        const uint64_t opens = videos_opened.load();
        const bool alone = open_videos.load() == 1 && opens == video->opens_seen;
        if (errors != video->errors_seen && alone) {
            if (video->damaged_frames++ == 0) video->first_damaged = frame_index;
            video->last_damaged = frame_index;
        }
        video->errors_seen = errors;
        video->opens_seen = opens;
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

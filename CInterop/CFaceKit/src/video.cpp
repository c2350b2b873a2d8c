// Sequential video reading (fk_video) on FFmpeg's libavformat and libavcodec (video_decoder), a
// few frames decoded ahead on a thread of its own so that decoding overlaps the caller's work.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"
#include "video_decoder.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Nice levels below the caller for a file's decoding: about a third of the caller's share of a
/// busy core (Linux weighs nice 5 at 335 against 1024).
constexpr int32_t background_nice_steps = 5;

/// Decodes the next frames on a worker thread while the caller works on the current one. A file
/// is decoded up to `depth` frames ahead, so that the worker fills a core the caller leaves idle
/// (a tracker waiting for a face descriptor) and the caller then finds its frames ready; a live
/// source one frame ahead, so that a frame is never older than the analysis needs. A file's
/// worker runs at a lower priority (`background`): with its frames queued it can fall behind for
/// a while, and on busy cores it gives way to the caller, whom the user waits on. A live
/// source's keeps the caller's: its packets must be read as they come.
///
/// Frames are converted to BGR as the caller's last call asked. An unconverted frame is only
/// ever the last one queued, and the worker decodes nothing after it until the caller has
/// taken it and called start() again: in between the decoder is idle and its last frame is that
/// one, which `fk::video_decoder::convert_last()` converts when the caller wants its pixels.
class read_ahead {
  public:
    read_ahead(fk::video_decoder &decoder, size_t depth, bool background)
        : decoder_(decoder), depth_(std::max<size_t>(depth, 1)), background_(background), worker_([this] { run(); }) {}
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

    /// Lets the worker decode ahead again (converting when `convert` is set).
    void start(bool convert) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            convert_ = convert;
            paused_ = false;
        }
        changed_.notify_all();
    }

    /// The next frame, or no frame after the end or once interrupt() was called; rethrows what
    /// decoding threw. The worker then waits for start().
    fk::decoded_frame wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return !queue_.empty() || interrupted_ || finished_; });
        // After the end (or a failure already thrown) every call finds no frame.
        if (interrupted_ || queue_.empty()) return fk::decoded_frame{};
        entry next = std::move(queue_.front());
        queue_.pop_front();
        paused_ = true;
        if (next.failure) std::rethrow_exception(next.failure);
        return std::move(next.frame);
    }

    /// Makes wait() return at once, now and from now on. Safe from any thread.
    void interrupt() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            interrupted_ = true;
        }
        changed_.notify_all();
    }

    /// Whether the worker is inside the decoder (after an interrupt: not yet back).
    bool busy() {
        std::lock_guard<std::mutex> lock(mutex_);
        return decoding_;
    }

    /// Lets the worker finish on its own instead of joining it (see ~fk_video).
    void abandon() { worker_.detach(); }

  private:
    struct entry {
        fk::decoded_frame frame;
        std::exception_ptr failure;
    };

    /// Whether the worker may decode one more frame now.
    bool may_decode() const {
        if (paused_ || finished_) return false;
        // After an unconverted frame nothing more until it is taken (see the class comment).
        return queue_.size() < (convert_ ? depth_ : 1) && (queue_.empty() || queue_.back().frame.converted);
    }

    void run() {
        if (background_) fk_thread_lower_priority(background_nice_steps);
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            changed_.wait(lock, [this] { return stopping_ || may_decode(); });
            if (stopping_) return;
            const bool convert = convert_;
            decoding_ = true;
            lock.unlock();
            entry next;
            {
                // A call of FaceKit's own: exit waits for this frame, and the worker parks after it.
                const fk::native_call call;
                try {
                    next.frame = decoder_.next(convert);
                    // Made here, on this thread, rather than twice on the caller's (the flow's
                    // pyramid and the cut detector's thumbnail both read grey).
                    if (next.frame.ok && next.frame.converted && next.frame.image.type() == CV_8UC3)
                        cv::cvtColor(next.frame.image, next.frame.grey, cv::COLOR_BGR2GRAY);
                } catch (...) {
                    next.failure = std::current_exception();
                }
            }
            lock.lock();
            decoding_ = false;
            // The end, a stall or a failure: nothing follows it.
            finished_ = next.failure != nullptr || !next.frame.ok;
            queue_.push_back(std::move(next));
            changed_.notify_all();
        }
    }

    fk::video_decoder &decoder_;
    const size_t depth_;
    const bool background_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<entry> queue_;
    bool paused_ = true;  // until the first start()
    bool decoding_ = false;
    bool finished_ = false;
    bool stopping_ = false;
    bool interrupted_ = false;
    bool convert_ = false;
    std::thread worker_;  // last: starts once the members it uses exist
};

/// Frames a file is decoded ahead: enough to ride out the caller's pauses, within about 64 MB
/// of frames (BGR and grey); live sources one (see read_ahead).
size_t read_ahead_depth(const fk::video_decoder &decoder, bool live) {
    if (live) return 1;
    const double frame_bytes = std::max(1.0, double(decoder.width()) * decoder.height() * 4);
    return size_t(std::clamp(64e6 / frame_bytes, 1.0, 32.0));
}

}  // namespace

struct fk_video {
    std::unique_ptr<fk::video_decoder> decoder;
    /// A live source (standard input, a URL, a device) rather than a file.
    bool live = false;
    fk_video_info info{};
    int64_t next_index = 0;
    bool ended = false;
    fk_video_end end = FK_VIDEO_END_OF_STREAM;
    /// Frames the decoder flagged (see decoded_frame::damaged): how many, the first and the last.
    int64_t damaged_frames = 0, first_damaged = -1, last_damaged = -1;
    /// fk_video_interrupt may come from another thread at any time, the first frame included.
    std::mutex interrupt_mutex;
    bool interrupt_requested = false;
    /// Times handed out so far (see presentation_time): the last, the gap before it, and the
    /// shift that puts a first frame reported before the stream's start at 0.
    double last_ms = 0, last_gap_ms = 0, shift_ms = 0;
    std::unique_ptr<read_ahead> reader;  // created at the first frame; joined before the decoder closes
    ~fk_video() {
        // A worker still in a read that nothing interrupts (a name lookup, say) would hold the
        // caller: it is left to finish on its own, with the decoder it uses (the memory is
        // given up, not freed under it).
        if (reader && end != FK_VIDEO_END_OF_STREAM && reader->busy()) {
            reader->abandon();
            (void)reader.release();
            (void)decoder.release();
            return;
        }
        reader.reset();
    }
};

namespace {

/// The time of frame `index`, which the decoder gave as `reported_ms`, relative to the first
/// frame and never earlier than the frame before: a frame reported before the frame before it
/// (damaged or odd timestamps) is placed one gap after it, the gap between the two before.
double presentation_time(fk_video &video, int64_t index, double reported_ms) {
    double ms = reported_ms;
    if ((!std::isfinite(ms) || (ms <= 0 && index > 0)) && video.info.fps > 0)
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

/// Opens `source` as `kind` and fills in the video's info.
fk_video *open_video(const std::string &source, fk::video_source kind, int read_timeout_ms, int open_timeout_ms,
                     int64_t max_pixels) {
    // OpenCV's own logging (FFmpeg's is the decoder's: it prints nothing).
    fk::silence_native_logging();
    auto video = std::make_unique<fk_video>();
    video->decoder = std::make_unique<fk::video_decoder>(source, kind, read_timeout_ms, open_timeout_ms, max_pixels);
    video->live = kind != fk::video_source::file;
    const auto &decoder = *video->decoder;
    video->info = fk_video_info{decoder.width(), decoder.height(), decoder.fps(), decoder.frame_count(), decoder.duration_ms()};
    return video.release();
}

}  // namespace

extern "C" int32_t fk_video_open(const char *path, int64_t max_pixels, fk_video **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr, "path and out must not be NULL");
        // Only a regular file is opened (a named pipe would block FFmpeg's open forever).
        if (fk::check_regular_file(path) == 0) throw fk::failure(FK_NOT_A_VIDEO, "empty file");
        *out = open_video(path, fk::video_source::file, 0, 0, max_pixels);
    });
}

extern "C" int32_t fk_video_open_live(const char *source, int32_t kind, int32_t timeout_ms,
                                      int32_t open_timeout_ms, int64_t max_pixels, fk_video **out,
                                      fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(source != nullptr && out != nullptr, "source and out must not be NULL");
        fk::require(kind == FK_LIVE_STANDARD_INPUT || kind == FK_LIVE_URL || kind == FK_LIVE_DEVICE, "unknown kind");
        fk::require(timeout_ms > 0 && open_timeout_ms > 0, "timeouts must be positive");
        const auto source_kind = kind == FK_LIVE_STANDARD_INPUT ? fk::video_source::standard_input
                                 : kind == FK_LIVE_URL          ? fk::video_source::url
                                                                : fk::video_source::device;
        *out = open_video(source, source_kind, timeout_ms, open_timeout_ms, max_pixels);
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
        video->decoder->interrupt();
        if (video->reader) video->reader->interrupt();
    });
}

extern "C" int32_t fk_video_get_end(const fk_video *video, fk_video_end *out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(video != nullptr && out != nullptr, "NULL argument");
        *out = video->end;
    });
}

extern "C" void fk_video_free(fk_video *video) { const fk::native_call call; delete video; }

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
        {
            std::lock_guard<std::mutex> lock(video->interrupt_mutex);
            if (!video->reader) {
                video->reader = std::make_unique<read_ahead>(*video->decoder, read_ahead_depth(*video->decoder, video->live),
                                                           /*background=*/!video->live);
                if (video->interrupt_requested) video->reader->interrupt();
                video->reader->start(decode != 0);
            }
        }
        fk::decoded_frame decoded = video->reader->wait();
        // The frame decoded ahead was converted as the previous call asked; convert it now if
        // this call wants pixels (the decoder is idle after wait()).
        if (decoded.ok && decode && !decoded.converted) {
            decoded.image = video->decoder->convert_last();
            decoded.ok = !decoded.image.empty();
        }
        if (!decoded.ok) {
            video->ended = true;
            std::lock_guard<std::mutex> lock(video->interrupt_mutex);
            if (video->interrupt_requested) {
                video->end = FK_VIDEO_END_INTERRUPTED;
            } else if (decoded.stalled) {
                video->end = FK_VIDEO_END_STALLED;
            }
            return at_end();
        }
        video->reader->start(decode != 0);
        const int64_t frame_index = video->next_index++;
        if (decoded.damaged) {
            if (video->damaged_frames++ == 0) video->first_damaged = frame_index;
            video->last_damaged = frame_index;
        }
        const double ms = presentation_time(*video, frame_index, decoded.position_ms);
        std::unique_ptr<fk_image> image;
        if (decode) {
            if (decoded.image.type() != CV_8UC3) throw fk::failure(FK_INTERNAL, "unexpected frame type");
            image = std::make_unique<fk_image>(fk_image{decoded.image, decoded.grey});
        }
        *ended = 0;
        *index = frame_index;
        *timestamp_ms = ms;
        if (frame != nullptr) *frame = image.release();
    });
}

#pragma GCC visibility pop

// One video's demuxer and decoder on FFmpeg's libavformat and libavcodec: packets in, upright
// BGR frames out, with each frame's presentation time and whether the decoder flagged it.
#pragma once

#include "ffmpeg_log.hpp"

#include <opencv2/core.hpp>

#include <atomic>
#include <cstdint>
#include <string>

struct AVCodecContext;
struct AVFormatContext;
struct AVFrame;
struct AVIOContext;
struct AVPacket;
struct SwsContext;

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Where a video comes from: a file is read to its end; the others are live, and each wait for
/// their data is bounded.
enum class video_source { file, standard_input, url, device };

/// One frame as the decoder gave it, or none (`ok` false: the end of the data, a stall, an
/// interrupt).
struct decoded_frame {
    bool ok = false;
    /// Whether `image` holds the pixels (next() converts only when asked).
    bool converted = false;
    /// The decoder concealed damage in it or could not decode it fully, or FFmpeg logged errors
    /// for this video since the frame before. A frame of another size than the stream's first
    /// (a resolution change) is not damaged: it comes at its own size.
    bool damaged = false;
    /// No frame because a live source sent nothing for its timeout.
    bool stalled = false;
    cv::Mat image;
    /// `image` in grey, made by the read-ahead thread (video.cpp) for the tracker's optical flow
    /// and cut detection; empty when not converted there.
    cv::Mat grey;
    /// Presentation time from the stream's start (NaN when the container gives none).
    double position_ms = 0;
};

class video_decoder {
  public:
    /// Opens `source` and its first video stream's decoder. A live source's open may take
    /// `open_timeout_ms`, each later wait for a frame `read_timeout_ms` (both unused for files).
    /// Throws fk::failure(FK_NOT_A_VIDEO) when it holds no video FFmpeg can decode, and
    /// fk::failure(FK_IMAGE_TOO_LARGE) when `max_pixels` is positive and its frames have more
    /// pixels; a later frame larger than that is not decoded (FFmpeg's own max_pixels) and reads
    /// as damaged.
    video_decoder(const std::string &source, video_source kind, int read_timeout_ms, int open_timeout_ms,
                  int64_t max_pixels);
    ~video_decoder();
    video_decoder(const video_decoder &) = delete;
    video_decoder &operator=(const video_decoder &) = delete;

    /// The upright size of the stream's frames as it opened (a later frame may have another:
    /// next() gives each at its own).
    int width() const { return quarter_turn() ? height_ : width_; }
    int height() const { return quarter_turn() ? width_ : height_; }
    /// As the container declares it; 0 when unknown.
    double fps() const { return fps_; }
    /// As the container declares it, or its duration times its rate (an estimate); 0 when unknown.
    int64_t frame_count() const { return frame_count_; }
    /// The container's duration from the first frame's time, edit lists applied; 0 when unknown.
    double duration_ms() const { return duration_ms_; }

    /// Decodes the next frame, converting it to upright BGR when `convert` is set.
    decoded_frame next(bool convert);
    /// Converts the frame the last next() returned, if it did not (empty when it cannot).
    cv::Mat convert_last();
    /// Ends the current wait (and every later one) at once. Safe from any thread.
    void interrupt() { interrupted_.store(true); }

  private:
    void close();
    static int interrupt_callback(void *decoder);
    static int read_standard_input(void *decoder, uint8_t *buffer, int size);
    /// Whether a wait must end: interrupt() was called, or a live source's deadline passed
    /// (which marks it stalled for good).
    bool should_stop();
    void arm_deadline(int milliseconds);
    void open_input(const std::string &source, video_source kind, int open_timeout_ms);
    void open_decoder();
    void read_stream_info();
    bool quarter_turn() const { return rotation_ == 90 || rotation_ == 270; }

    video_source kind_;
    int read_timeout_ms_;
    int64_t max_pixels_;
    ffmpeg_error_tally tally_;  // before the contexts that point at it
    uint64_t errors_seen_ = 0;
    AVFormatContext *format_ = nullptr;
    AVIOContext *standard_input_ = nullptr;
    AVCodecContext *codec_ = nullptr;
    AVPacket *packet_ = nullptr;
    AVFrame *frame_ = nullptr;
    SwsContext *scaler_ = nullptr;
    int stream_ = -1;
    bool draining_ = false;
    int width_ = 0, height_ = 0, rotation_ = 0;
    double fps_ = 0, duration_ms_ = 0, time_base_ = 0;
    int64_t frame_count_ = 0, start_time_ = 0;
    std::atomic<bool> interrupted_{false};
    std::atomic<bool> stalled_{false};
    /// When the current wait of a live source gives up (steady clock, ns; 0: never).
    std::atomic<int64_t> deadline_ns_{0};
};

}  // namespace fk

#pragma GCC visibility pop

// FFmpeg's log, taken over for the whole process: nothing it says reaches stderr (the shim names
// every failure with its subject instead), and the errors it logs for a video FaceKit reads are
// counted for that video.
#pragma once

#include <atomic>
#include <cstdint>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Where the errors FFmpeg logs for one video are counted. A video's format and codec contexts
/// carry a pointer to its tally in their `opaque` field, which FFmpeg copies into the codec's
/// thread contexts: an error a decoding thread logs is counted for its video, whatever else the
/// process has open.
class ffmpeg_error_tally {
  public:
    ffmpeg_error_tally();
    ~ffmpeg_error_tally();
    ffmpeg_error_tally(const ffmpeg_error_tally &) = delete;
    ffmpeg_error_tally &operator=(const ffmpeg_error_tally &) = delete;

    uint64_t count() const { return errors_.load(std::memory_order_relaxed); }
    void add() { errors_.fetch_add(1, std::memory_order_relaxed); }

  private:
    std::atomic<uint64_t> errors_{0};
};

/// Installs FaceKit's log callback and level. OpenCV's FFmpeg backend installs its own at every
/// open (the video writer's included), so each entry point that opened FFmpeg through OpenCV
/// calls this again afterwards.
void listen_to_ffmpeg_log();

}  // namespace fk

#pragma GCC visibility pop

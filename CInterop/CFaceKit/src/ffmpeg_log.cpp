// FFmpeg's log callback: counts errors for the tally their context names, prints nothing.
#include "ffmpeg_log.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
}

#include <cstdarg>
#include <mutex>
#include <unordered_set>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {
namespace {

/// The tallies alive now: an `opaque` pointer is trusted only if it is one of them (another
/// library's context may keep its own data there).
std::mutex tallies_mutex;
std::unordered_set<const ffmpeg_error_tally *> &tallies() {
    static auto *set = new std::unordered_set<const ffmpeg_error_tally *>();  // never destroyed: FFmpeg may log at exit
    return *set;
}

void count_error(void *context, int level, const char *, va_list) {
    if (level > AV_LOG_ERROR || context == nullptr) return;
    const AVClass *kind = *static_cast<const AVClass *const *>(context);
    void *opaque = nullptr;
    if (kind == avcodec_get_class()) {
        opaque = static_cast<AVCodecContext *>(context)->opaque;
    } else if (kind == avformat_get_class()) {
        opaque = static_cast<AVFormatContext *>(context)->opaque;
    }
    if (opaque == nullptr) return;
    std::lock_guard<std::mutex> lock(tallies_mutex);
    auto *tally = static_cast<ffmpeg_error_tally *>(opaque);
    if (tallies().count(tally) != 0) tally->add();
}

}  // namespace

ffmpeg_error_tally::ffmpeg_error_tally() {
    std::lock_guard<std::mutex> lock(tallies_mutex);
    tallies().insert(this);
}

ffmpeg_error_tally::~ffmpeg_error_tally() {
    std::lock_guard<std::mutex> lock(tallies_mutex);
    tallies().erase(this);
}

void listen_to_ffmpeg_log() {
    av_log_set_callback(count_error);
    av_log_set_level(AV_LOG_ERROR);
}

}  // namespace fk

#pragma GCC visibility pop

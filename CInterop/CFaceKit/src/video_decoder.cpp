// Demuxing and decoding on libavformat and libavcodec, as OpenCV's FFmpeg backend does it (the same
// decoder and BICUBIC conversion to BGR, so frames are the same bytes), with what it
// hides made visible: each frame's presentation time, the decoder's damage flags, and waits on a
// live source that end when it stalls or when asked to.
#include "video_decoder.hpp"

#include "guard.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/macros.h>
#include <libswscale/swscale.h>
}

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <dlfcn.h>
#include <limits>
#include <mutex>
#include <poll.h>
#include <sched.h>
#include <thread>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {
namespace {

/// A decoder that refuses this many packets or frames in a row has stopped decoding.
constexpr int max_failures_in_a_row = 512;
/// Standard input is read in pieces this size (a pipe holds 64 KiB).
constexpr int standard_input_buffer = 32768;

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The processors this process may run on (its affinity, as `taskset` sets it): the decoder's
/// threads.
int usable_processors() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    return int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

/// Frames up to this many pixels (1280x720) are decoded on one thread.
constexpr int64_t one_thread_pixels = 1280 * 720;

/// The decoder's threads for frames of this size. fk_video already decodes one frame ahead on a
/// thread of its own, so frame threads only pay when decoding a frame takes about as long as
/// analysing it. At 640x360 they cost a quarter more CPU (`ffmpeg -threads 2` against `-threads 1`
/// on the ten-times Hamilton clip: 2.8 against 2.2 s), taken from the cores the analysis needs;
/// 1280x720 as the bound is a judgement (4 times those pixels), not measured. The frames are the
/// same bytes either way (scripts/record-outputs over every development clip).
int decoder_threads(int width, int height) {
    if (int64_t(width) * int64_t(height) <= one_thread_pixels) return 1;
    return usable_processors();
}

/// FFmpeg's V4L2 input, from libavdevice, loaded only when a camera is opened: it brings dozens
/// of libraries (SDL, PulseAudio, X11) that a file never needs. Null when it cannot be loaded.
const AVInputFormat *v4l2_input() {
    static const AVInputFormat *format = []() -> const AVInputFormat * {
        void *library = dlopen("libavdevice.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return nullptr;
        auto register_devices = reinterpret_cast<void (*)()>(dlsym(library, "avdevice_register_all"));
        if (register_devices == nullptr) return nullptr;
        register_devices();
        return av_find_input_format("video4linux2");
    }();
    return format;
}

double to_double(AVRational rational) { return rational.den != 0 ? av_q2d(rational) : 0; }

}  // namespace

video_decoder::video_decoder(const std::string &source, video_source kind, int read_timeout_ms, int open_timeout_ms,
                             int64_t max_pixels)
    : kind_(kind), read_timeout_ms_(read_timeout_ms), max_pixels_(max_pixels) {
    static std::once_flag network;
    std::call_once(network, [] { avformat_network_init(); });
    listen_to_ffmpeg_log();
    try {
        open_input(source, kind, open_timeout_ms);
        open_decoder();
        read_stream_info();
        packet_ = av_packet_alloc();
        frame_ = av_frame_alloc();
        if (packet_ == nullptr || frame_ == nullptr) throw std::bad_alloc();
    } catch (...) {
        close();
        throw;
    }
    deadline_ns_.store(0);
    errors_seen_ = tally_.count();  // the open's own complaints are not a frame's
}

video_decoder::~video_decoder() { close(); }

void video_decoder::close() {
    sws_freeContext(scaler_);
    scaler_ = nullptr;
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&codec_);
    avformat_close_input(&format_);
    if (standard_input_ != nullptr) {
        av_freep(&standard_input_->buffer);
        avio_context_free(&standard_input_);
    }
}

int video_decoder::interrupt_callback(void *decoder) { return static_cast<video_decoder *>(decoder)->should_stop(); }

bool video_decoder::should_stop() {
    if (interrupted_.load()) return true;
    const int64_t deadline = deadline_ns_.load(std::memory_order_relaxed);
    if (deadline != 0 && now_ns() > deadline) stalled_.store(true);
    return stalled_.load();
}

void video_decoder::arm_deadline(int milliseconds) { deadline_ns_.store(now_ns() + int64_t(milliseconds) * 1000000); }

/// Standard input through poll(): FFmpeg's own pipe protocol blocks in read() until data comes,
/// which no timeout or interrupt can end.
int video_decoder::read_standard_input(void *decoder, uint8_t *buffer, int size) {
    auto &self = *static_cast<video_decoder *>(decoder);
    while (true) {
        if (self.should_stop()) return AVERROR_EXIT;
        pollfd input{STDIN_FILENO, POLLIN, 0};
        const int ready = poll(&input, 1, 50);
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        if (ready < 0) return AVERROR(errno);
        const ssize_t count = read(STDIN_FILENO, buffer, size_t(size));
        if (count > 0) return int(count);
        if (count == 0) return AVERROR_EOF;
        if (errno != EINTR && errno != EAGAIN) return AVERROR(errno);
    }
}

void video_decoder::open_input(const std::string &source, video_source kind, int open_timeout_ms) {
    format_ = avformat_alloc_context();
    if (format_ == nullptr) throw std::bad_alloc();
    format_->opaque = &tally_;
    format_->interrupt_callback = AVIOInterruptCB{interrupt_callback, this};
    const AVInputFormat *input = nullptr;
    AVDictionary *options = nullptr;
    const char *url = source.c_str();
    switch (kind) {
    case video_source::file: break;
    case video_source::standard_input: {
        auto *buffer = static_cast<uint8_t *>(av_malloc(standard_input_buffer));
        standard_input_ = buffer != nullptr ? avio_alloc_context(buffer, standard_input_buffer, 0, this, read_standard_input,
                                                                 nullptr, nullptr)
                                            : nullptr;
        if (standard_input_ == nullptr) {
            av_free(buffer);
            throw std::bad_alloc();
        }
        format_->pb = standard_input_;
        url = "pipe:0";
        break;
    }
    case video_source::url: av_dict_set(&options, "rtsp_flags", "prefer_tcp", 0); break;
    case video_source::device:
        input = v4l2_input();
        if (input == nullptr) throw failure(FK_NOT_A_VIDEO, "FFmpeg's V4L2 input (libavdevice) cannot be loaded");
        // A camera that stops sending would block its read without end.
        format_->flags |= AVFMT_FLAG_NONBLOCK;
        break;
    }
    if (kind != video_source::file) arm_deadline(open_timeout_ms);
    const int opened = avformat_open_input(&format_, url, input, &options);  // frees format_ when it fails
    av_dict_free(&options);
    const char *reason = kind == video_source::file ? "no video stream FFmpeg can decode"
                         : kind == video_source::device ? "no camera that V4L2 can read"
                                                        : "no video stream FFmpeg can decode within the timeout";
    if (opened < 0) throw failure(FK_NOT_A_VIDEO, reason);
    if (avformat_find_stream_info(format_, nullptr) < 0) throw failure(FK_NOT_A_VIDEO, reason);
    // The first video stream, as OpenCV takes it (cover art is a picture, not the video).
    for (unsigned i = 0; i < format_->nb_streams; ++i) {
        const AVStream *stream = format_->streams[i];
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(stream->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            stream_ = int(i);
            break;
        }
    }
    if (stream_ < 0) throw failure(FK_NOT_A_VIDEO, reason);
    // The other streams (audio, subtitles, a second video) are skipped by the demuxer itself.
    for (unsigned i = 0; i < format_->nb_streams; ++i)
        if (int(i) != stream_) format_->streams[i]->discard = AVDISCARD_ALL;
}

void video_decoder::open_decoder() {
    const AVCodecParameters *parameters = format_->streams[stream_]->codecpar;
    const AVCodec *decoder = avcodec_find_decoder(parameters->codec_id);
    if (decoder == nullptr) throw failure(FK_NOT_A_VIDEO, "FFmpeg has no decoder for its video stream");
    codec_ = avcodec_alloc_context3(decoder);
    if (codec_ == nullptr) throw std::bad_alloc();
    if (avcodec_parameters_to_context(codec_, parameters) < 0) throw failure(FK_NOT_A_VIDEO, "unreadable codec parameters");
    codec_->thread_count = decoder_threads(parameters->width, parameters->height);
    codec_->opaque = &tally_;
    // The limit a photo has (--max-pixels), before a frame is decoded (three 16000x16000 MJPEG
    // frames once took 2.5 GB), and before avcodec_open2, which refuses a larger declared size
    // without saying why.
    if (max_pixels_ > 0 && int64_t(parameters->width) * parameters->height > max_pixels_)
        throw failure(FK_IMAGE_TOO_LARGE, "frames of " + std::to_string(parameters->width) + "x" +
                                              std::to_string(parameters->height) + " pixels are over the limit of " +
                                              std::to_string(max_pixels_));
    if (max_pixels_ > 0) codec_->max_pixels = max_pixels_;  // checked by FFmpeg for every frame it allocates
    if (avcodec_open2(codec_, decoder, nullptr) < 0) throw failure(FK_NOT_A_VIDEO, "FFmpeg cannot open its video decoder");
}

void video_decoder::read_stream_info() {
    const AVStream *stream = format_->streams[stream_];
    width_ = stream->codecpar->width;
    height_ = stream->codecpar->height;
    if (width_ <= 0 || height_ <= 0) throw failure(FK_NOT_A_VIDEO, "no video stream with a frame size");
    time_base_ = to_double(stream->time_base);
    start_time_ = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    // The rate and count as OpenCV gives them: the average rate, else one frame per time-base
    // tick; the stream's count, else its duration times that rate.
    double rate = to_double(stream->avg_frame_rate);
    if (rate < 1e-6 && time_base_ > 0) rate = 1 / time_base_;
    fps_ = std::isfinite(rate) && rate > 0 && rate < 1000 ? rate : 0;
    const bool live = kind_ != video_source::file;
    double duration_s = format_->duration != AV_NOPTS_VALUE ? double(format_->duration) / AV_TIME_BASE : 0;
    if (duration_s < 1e-6 && stream->duration != AV_NOPTS_VALUE) duration_s = double(stream->duration) * time_base_;
    const double count = stream->nb_frames > 0 ? double(stream->nb_frames) : std::floor(duration_s * rate + 0.5);
    // A live source has no count (FFmpeg gives nonsense such as -3e15 for a UDP stream).
    frame_count_ = !live && std::isfinite(count) && count > 0 && count < 1e12 ? int64_t(count) : 0;
    // The duration the frames can reach: a header's duration counts from 0, and a Matroska file
    // that starts late (0.5 s) has its first frame there; a duration FFmpeg measured from the
    // packets' times already starts at the first.
    double ms = !live && format_->duration != AV_NOPTS_VALUE && format_->duration > 0 ? double(format_->duration) / AV_TIME_BASE * 1000 : 0;
    const double start_ms = double(start_time_) * time_base_ * 1000;
    if (format_->duration_estimation_method != AVFMT_DURATION_FROM_PTS && start_ms > 0 && start_ms < ms) ms -= start_ms;
    duration_ms_ = ms;
    // Rotation metadata, applied as OpenCV applies it: quarter and half turns only.
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 30, 100)
    // FFmpeg 6.1 on: the stream's side data is its parameters' (av_stream_get_side_data is
    // deprecated, and gone in FFmpeg 8).
    const AVPacketSideData *side_data = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    const uint8_t *matrix = side_data != nullptr ? side_data->data : nullptr;
#else
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nullptr);
#endif
    if (matrix != nullptr) {
        const double degrees = av_display_rotation_get(reinterpret_cast<const int32_t *>(matrix));
        int angle = std::isfinite(degrees) ? int(std::lround(degrees)) : 0;
        if (angle < 0) angle += 360;
        rotation_ = angle == 90 || angle == 180 || angle == 270 ? angle : 0;
    }
}

decoded_frame video_decoder::next(bool convert) {
    decoded_frame out;
    if (kind_ != video_source::file) arm_deadline(read_timeout_ms_);
    bool refused = false;  // a packet or frame the decoder could not decode, since the last frame
    int failures = 0;
    while (true) {
        const int received = avcodec_receive_frame(codec_, frame_);
        if (received >= 0) break;
        if (received == AVERROR_EOF || (received == AVERROR(EAGAIN) && draining_)) {
            out.stalled = stalled_.load() && !interrupted_.load();
            return out;
        }
        if (received != AVERROR(EAGAIN)) {
            refused = true;
            if (++failures > max_failures_in_a_row) return out;
            continue;
        }
        const int read = av_read_frame(format_, packet_);
        if (read == AVERROR(EAGAIN) && !should_stop()) {
            // A camera opened non-blocking, its next frame not there yet.
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            continue;
        }
        if (read < 0) {
            // The end of the data, a read error or a stall (FFmpeg's reads keep their first
            // error, so a wait that ended ends every later read too, even while the frames read
            // before it are still being handed out): the decoder hands out the frames it holds.
            // An interrupt ends at once.
            if (interrupted_.load()) return out;
            draining_ = true;
            avcodec_send_packet(codec_, nullptr);
            continue;
        }
        if (packet_->stream_index == stream_ && avcodec_send_packet(codec_, packet_) < 0) {
            refused = true;
            if (++failures > max_failures_in_a_row) {
                av_packet_unref(packet_);
                return out;
            }
        }
        av_packet_unref(packet_);
    }
    out.ok = true;
    int64_t time = frame_->best_effort_timestamp;
    if (time == AV_NOPTS_VALUE) time = frame_->pts;
    if (time == AV_NOPTS_VALUE) time = frame_->pkt_dts;
    out.position_ms = time != AV_NOPTS_VALUE ? double(time - start_time_) * time_base_ * 1000
                                             : std::numeric_limits<double>::quiet_NaN();
    const uint64_t errors = tally_.count();
    // A frame of another size than the stream's first is not damage: a stream may change its
    // resolution on the way (broadcast, adaptive streaming), and the frame comes at its own size.
    out.damaged = refused || errors != errors_seen_ || frame_->decode_error_flags != 0 ||
                  (frame_->flags & AV_FRAME_FLAG_CORRUPT) != 0;
    errors_seen_ = errors;
    if (convert) {
        out.image = convert_last();
        out.converted = true;
        out.ok = !out.image.empty();
    }
    return out;
}

cv::Mat video_decoder::convert_last() {
    const int width = frame_->width, height = frame_->height;
    if (frame_->data[0] == nullptr || width <= 0 || height <= 0) return {};
    scaler_ = sws_getCachedContext(scaler_, width, height, AVPixelFormat(frame_->format), width, height, AV_PIX_FMT_BGR24,
                                   SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (scaler_ == nullptr) return {};
    // Rows aligned for swscale's vector code, and a row to spare: it writes whole vectors, past
    // the last row's end (valgrind: 8 bytes after a buffer of exactly the rows).
    const int stride = (width * 3 + 63) / 64 * 64;
    cv::Mat buffer(height + 1, stride, CV_8UC1);
    uint8_t *planes[4] = {buffer.data, nullptr, nullptr, nullptr};
    int strides[4] = {stride, 0, 0, 0};
    sws_scale(scaler_, frame_->data, frame_->linesize, 0, height, planes, strides);
    // Each frame at its own size, also where the stream's resolution changed on the way (its
    // new geometry: the caller sees the size change; fk_video_info keeps the first size).
    cv::Mat sized(height, width, CV_8UC3, buffer.data, size_t(stride));
    cv::Mat image;
    switch (rotation_) {
    case 90: cv::rotate(sized, image, cv::ROTATE_90_CLOCKWISE); break;
    case 180: cv::rotate(sized, image, cv::ROTATE_180); break;
    case 270: cv::rotate(sized, image, cv::ROTATE_90_COUNTERCLOCKWISE); break;
    default:
        // Rows with no padding (widths of a multiple of 64, as most are): the buffer's rows are
        // the image, shared instead of copied.
        if (sized.data == buffer.data && stride == width * 3) return buffer.rowRange(0, height).reshape(3);
        sized.copyTo(image);
        break;
    }
    return image;
}

}  // namespace fk

#pragma GCC visibility pop

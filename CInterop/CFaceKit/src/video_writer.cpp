// Video writing on FFmpeg's libavformat and libavcodec: BGR frames converted to the encoder's
// pixel format, encoded, and muxed into the container the path's extension names. The file is
// opened once, never through a symbolic link at its path, and FFmpeg writes to that descriptor
// (its own file protocol would open the path again, following a link planted there).
#include "CFaceKit.h"
#include "ffmpeg_log.hpp"
#include "guard.hpp"
#include "image.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Frees the I/O context written through and its buffer.
void free_io(AVIOContext *&io) {
    if (io == nullptr) return;
    av_freep(&io->buffer);
    avio_context_free(&io);
}

}  // namespace

struct fk_video_writer {
    std::string path;
    int descriptor = -1;  // the file, which FFmpeg's I/O context writes to
    int32_t width = 0;    // of the frames given
    int32_t height = 0;
    AVFormatContext *format = nullptr;
    AVCodecContext *codec = nullptr;
    AVStream *stream = nullptr;
    AVFrame *frame = nullptr;
    AVPacket *packet = nullptr;
    SwsContext *scaler = nullptr;
    int64_t next_pts = 0;
    bool finished = false;

    ~fk_video_writer() {
        sws_freeContext(scaler);
        av_packet_free(&packet);
        av_frame_free(&frame);
        avcodec_free_context(&codec);
        if (format != nullptr) {
            free_io(format->pb);
            avformat_free_context(format);
        }
        if (descriptor >= 0) ::close(descriptor);
    }
};

namespace {

/// Creates (or truncates) path with the permissions a shell redirection gives, never through a
/// symbolic link at path, so that a path that cannot be written is reported with the system's
/// reason rather than FFmpeg's. Returns the descriptor.
int create_file(const char *path) {
    struct stat st {};
    if (::lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
        throw fk::failure(FK_FILE_UNWRITABLE, "cannot create the file: it is a folder");
    int descriptor = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (descriptor < 0 && errno == ELOOP)
        throw fk::failure(FK_FILE_UNWRITABLE, "cannot create the file: it is a symbolic link, which FaceKit does not write through");
    if (descriptor < 0)
        throw fk::failure(FK_FILE_UNWRITABLE, std::string("cannot create the file: ") + std::strerror(errno));
    return descriptor;
}

/// FFmpeg's I/O context's writes: all of `size` bytes to the descriptor `opaque` points to.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
int write_to_file(void *opaque, const uint8_t *bytes, int size) {
#else
int write_to_file(void *opaque, uint8_t *bytes, int size) {
#endif
    const int descriptor = *static_cast<const int *>(opaque);
    int done = 0;
    while (done < size) {
        const ssize_t written = ::write(descriptor, bytes + done, size_t(size - done));
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) return AVERROR(errno);
        done += int(written);
    }
    return size;
}

/// FFmpeg's I/O context's seeks (a container's index is written back at its start), and its
/// questions for the file's size.
int64_t seek_in_file(void *opaque, int64_t offset, int whence) {
    const int descriptor = *static_cast<const int *>(opaque);
    if (whence & AVSEEK_SIZE) {
        struct stat st {};
        return ::fstat(descriptor, &st) == 0 ? int64_t(st.st_size) : AVERROR(errno);
    }
    const off_t at = ::lseek(descriptor, off_t(offset), whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : int64_t(at);
}

std::string ffmpeg_reason(int status) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(status, text, sizeof text);
    return text;
}

/// A failure to write the file: the system's reason (ENOSPC, EIO) as FFmpeg passes it on.
[[noreturn]] void unwritable(int status) { throw fk::failure(FK_FILE_UNWRITABLE, ffmpeg_reason(status)); }

/// The codec a four-character code names in this container, as OpenCV's writer finds it: the
/// container's own tags, then the AVI and QuickTime tables, then the code as a codec's name.
AVCodecID codec_for(const AVOutputFormat *container, const char *fourcc) {
    const unsigned tag = MKTAG(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
    AVCodecID id = container->codec_tag != nullptr ? av_codec_get_id(container->codec_tag, tag) : AV_CODEC_ID_NONE;
    if (id == AV_CODEC_ID_NONE) {
        const AVCodecTag *const tables[] = {avformat_get_riff_video_tags(), avformat_get_mov_video_tags(), nullptr};
        id = av_codec_get_id(tables, tag);
    }
    if (id == AV_CODEC_ID_NONE) {
        char name[5] = {};
        for (int i = 0; i < 4; ++i) name[i] = char(std::tolower(static_cast<unsigned char>(fourcc[i])));
        if (const AVCodecDescriptor *descriptor = avcodec_descriptor_get_by_name(name)) id = descriptor->id;
    }
    return id;
}

/// 4:2:0 as every lossy encoder takes it, full-range where the encoder offers it (Motion JPEG,
/// which refuses limited range as non-standard), else the encoder's first.
AVPixelFormat pixel_format_for(const AVCodec *encoder) {
    const AVPixelFormat *formats = nullptr;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
    // FFmpeg 7.1 asks for the encoder's formats instead of AVCodec.pix_fmts (deprecated there).
    const void *supported = nullptr;
    if (avcodec_get_supported_config(nullptr, encoder, AV_CODEC_CONFIG_PIX_FORMAT, 0, &supported, nullptr) >= 0)
        formats = static_cast<const AVPixelFormat *>(supported);
#else
    formats = encoder->pix_fmts;
#endif
    if (formats == nullptr) return AV_PIX_FMT_YUV420P;
    for (const AVPixelFormat wanted : {AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV420P})
        for (const AVPixelFormat *format = formats; *format != AV_PIX_FMT_NONE; ++format)
            if (*format == wanted) return wanted;
    return formats[0];
}

/// The rate as a fraction, exact to 0.001 (29.97 is 2997/100), as OpenCV's writer makes it.
AVRational rate_of(double fps) {
    int base = 1, rate = int(fps + 0.5);
    while (std::fabs(double(rate) / base - fps) > 0.001 && base < 1000000) {
        base *= 10;
        rate = int(fps * base + 0.5);
    }
    return AVRational{rate, base};
}

/// Encodes `frame` (nullptr: flushes the encoder) and writes the packets that come out.
void encode(fk_video_writer &writer, const AVFrame *frame) {
    int status = avcodec_send_frame(writer.codec, frame);
    if (status < 0) throw fk::failure(FK_INTERNAL, "encoding a frame failed: " + ffmpeg_reason(status));
    while ((status = avcodec_receive_packet(writer.codec, writer.packet)) >= 0) {
        av_packet_rescale_ts(writer.packet, writer.codec->time_base, writer.stream->time_base);
        writer.packet->stream_index = writer.stream->index;
        status = av_interleaved_write_frame(writer.format, writer.packet);  // takes the packet
        if (status < 0) unwritable(status);
    }
    if (status != AVERROR(EAGAIN) && status != AVERROR_EOF)
        throw fk::failure(FK_INTERNAL, "encoding a frame failed: " + ffmpeg_reason(status));
}

/// Opens the container, the encoder and the file; throws FK_INVALID_ARGUMENT when FFmpeg
/// cannot put this codec into this container.
void open_writer(fk_video_writer &writer, const char *fourcc, double fps) {
    const std::string refused = std::string("FFmpeg cannot encode '") + fourcc + "' into this file's container";
    if (avformat_alloc_output_context2(&writer.format, nullptr, nullptr, writer.path.c_str()) < 0)
        throw fk::failure(FK_INVALID_ARGUMENT, refused);
    const AVOutputFormat *container = writer.format->oformat;
    const AVCodecID id = codec_for(container, fourcc);
    const AVCodec *encoder = id != AV_CODEC_ID_NONE ? avcodec_find_encoder(id) : nullptr;
    if (encoder == nullptr || avformat_query_codec(container, id, FF_COMPLIANCE_NORMAL) != 1)
        throw fk::failure(FK_INVALID_ARGUMENT, refused);
    writer.codec = avcodec_alloc_context3(encoder);
    writer.stream = avformat_new_stream(writer.format, nullptr);
    writer.frame = av_frame_alloc();
    writer.packet = av_packet_alloc();
    if (writer.codec == nullptr || writer.stream == nullptr || writer.frame == nullptr || writer.packet == nullptr)
        throw std::bad_alloc();
    AVCodecContext &codec = *writer.codec;
    // 4:2:0 keeps colour at half resolution: an odd side leaves its last column or row out.
    codec.width = writer.width & ~1;
    codec.height = writer.height & ~1;
    const AVRational rate = rate_of(fps);
    codec.time_base = AVRational{rate.den, rate.num};
    codec.framerate = rate;
    codec.pix_fmt = pixel_format_for(encoder);
    if (id == AV_CODEC_ID_H264) {
        av_opt_set(codec.priv_data, "crf", "23", 0);  // x264's default quality, as OpenCV asks for it
    } else {
        // OpenCV's writer: 1.5 bits a pixel, an intra frame every twelve.
        codec.bit_rate = int64_t(std::min(1.5 * fps * codec.width * codec.height, double(INT_MAX)));
        codec.gop_size = 12;
        codec.qmin = 3;
    }
    if (container->flags & AVFMT_GLOBALHEADER) codec.flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (avcodec_open2(&codec, encoder, nullptr) < 0) throw fk::failure(FK_INVALID_ARGUMENT, refused);
    if (avcodec_parameters_from_context(writer.stream->codecpar, &codec) < 0) throw std::bad_alloc();
    writer.stream->time_base = codec.time_base;
    writer.stream->avg_frame_rate = rate;
    constexpr int buffer_size = 1 << 16;
    auto *buffer = static_cast<unsigned char *>(av_malloc(buffer_size));
    if (buffer == nullptr) throw std::bad_alloc();
    writer.format->pb = avio_alloc_context(buffer, buffer_size, 1, &writer.descriptor, nullptr, write_to_file, seek_in_file);
    if (writer.format->pb == nullptr) {
        av_free(buffer);
        throw std::bad_alloc();
    }
    writer.format->flags |= AVFMT_FLAG_CUSTOM_IO;
    int status = avformat_write_header(writer.format, nullptr);
    if (status < 0) {
        if (writer.format->pb != nullptr && writer.format->pb->error < 0) unwritable(status);
        throw fk::failure(FK_INVALID_ARGUMENT, refused);
    }
    writer.frame->format = codec.pix_fmt;
    writer.frame->width = codec.width;
    writer.frame->height = codec.height;
    if (av_frame_get_buffer(writer.frame, 0) < 0) throw std::bad_alloc();
    writer.scaler = sws_getContext(codec.width, codec.height, AV_PIX_FMT_BGR24, codec.width, codec.height, codec.pix_fmt,
                                   SWS_BICUBIC, nullptr, nullptr, nullptr);
    if (writer.scaler == nullptr) throw fk::failure(FK_INVALID_ARGUMENT, refused);
}

/// The checks both ways of creating a writer make of their arguments.
void check_writer_arguments(const char *name, const char *fourcc, double fps, int32_t width, int32_t height,
                            fk_video_writer **out) {
    fk::require(name != nullptr && fourcc != nullptr && out != nullptr, "path, fourcc and out must not be NULL");
    fk::require(std::strlen(fourcc) == 4, "fourcc must be exactly 4 characters");
    fk::require(std::isfinite(fps) && fps > 0 && fps <= 1000, "fps must be in (0, 1000]");
    fk::require(width >= 2 && height >= 2 && width <= 16384 && height <= 16384, "width and height must be in 2 ... 16384");
}

/// A writer on `descriptor` (which it then owns), its container told by `name`'s extension.
std::unique_ptr<fk_video_writer> make_writer(int descriptor, const char *name, const char *fourcc, double fps,
                                             int32_t width, int32_t height) {
    fk::listen_to_ffmpeg_log();  // FFmpeg's own warnings would reach stderr
    auto writer = std::make_unique<fk_video_writer>();
    writer->descriptor = descriptor;
    writer->path = name;
    writer->width = width;
    writer->height = height;
    open_writer(*writer, fourcc, fps);
    return writer;
}

}  // namespace

extern "C" int32_t fk_video_writer_create(const char *path, const char *fourcc, double fps, int32_t width,
                                          int32_t height, fk_video_writer **out, fk_error *error) {
    return fk::guarded(error, [&] {
        check_writer_arguments(path, fourcc, fps, width, height, out);
        const int descriptor = create_file(path);
        try {
            *out = make_writer(descriptor, path, fourcc, fps, width, height).release();
        } catch (...) {
            ::unlink(path);
            throw;
        }
    });
}

extern "C" int32_t fk_video_writer_create_on_descriptor(int32_t descriptor, const char *name, const char *fourcc,
                                                        double fps, int32_t width, int32_t height,
                                                        fk_video_writer **out, fk_error *error) {
    return fk::guarded(error, [&] {
        check_writer_arguments(name, fourcc, fps, width, height, out);
        const int own = ::fcntl(descriptor, F_DUPFD_CLOEXEC, 0);
        if (own < 0) throw fk::failure(FK_FILE_UNWRITABLE, std::string("cannot write the file: ") + std::strerror(errno));
        if (::ftruncate(own, 0) != 0 || ::lseek(own, 0, SEEK_SET) != 0) {
            const int code = errno;
            ::close(own);
            throw fk::failure(FK_FILE_UNWRITABLE, std::string("cannot write the file: ") + std::strerror(code));
        }
        *out = make_writer(own, name, fourcc, fps, width, height).release();
    });
}

extern "C" int32_t fk_video_writer_write(fk_video_writer *writer, const fk_image *frame, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(writer != nullptr && frame != nullptr, "writer and frame must not be NULL");
        fk::require(!writer->finished, "the video is already finished");
        fk::require(frame->bgr.cols == writer->width && frame->bgr.rows == writer->height,
                    "the frame's size differs from the video's");
        if (frame->bgr.type() != CV_8UC3) throw fk::failure(FK_INTERNAL, "unexpected frame type");
        // The encoder may still hold the last frame's buffer: write into a buffer of our own.
        if (av_frame_make_writable(writer->frame) < 0) throw std::bad_alloc();
        const uint8_t *planes[4] = {frame->bgr.data, nullptr, nullptr, nullptr};
        const int strides[4] = {int(frame->bgr.step), 0, 0, 0};
        sws_scale(writer->scaler, planes, strides, 0, writer->codec->height, writer->frame->data, writer->frame->linesize);
        writer->frame->pts = writer->next_pts++;
        encode(*writer, writer->frame);
    });
}

extern "C" int32_t fk_video_writer_finish(fk_video_writer *writer, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(writer != nullptr, "writer must not be NULL");
        if (writer->finished) return;
        writer->finished = true;
        encode(*writer, nullptr);
        const int status = av_write_trailer(writer->format);
        if (status < 0) unwritable(status);
        avio_flush(writer->format->pb);
        if (writer->format->pb->error < 0) unwritable(writer->format->pb->error);
        free_io(writer->format->pb);
        struct stat st {};
        if (::fstat(writer->descriptor, &st) != 0 || st.st_nlink == 0 || st.st_size == 0)
            throw fk::failure(FK_FILE_UNWRITABLE, "the file is missing or empty after writing");
        const int descriptor = writer->descriptor;
        writer->descriptor = -1;
        if (::close(descriptor) != 0) unwritable(AVERROR(errno));
    });
}

extern "C" void fk_video_writer_free(fk_video_writer *writer) {
    const fk::native_call call;  // finishing encodes and writes: exit waits for it (exit_gate.hpp)
    if (writer == nullptr) return;
    if (!writer->finished) {
        fk_error ignored{};
        fk_video_writer_finish(writer, &ignored);
    }
    delete writer;
}

#pragma GCC visibility pop

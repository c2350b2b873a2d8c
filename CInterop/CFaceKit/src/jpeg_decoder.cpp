// JPEG decoding through libjpeg(-turbo) with an error manager of our own.
//
// OpenCV's JPEG reader lets libjpeg print its warnings to stderr and otherwise ignores them: a
// photo cut in half with an end marker appended, or with a zeroed middle, decoded to a picture
// half grey, and the only trace was libjpeg's "Corrupt JPEG data: premature end of data segment"
// on stderr, without the file's name. Here warnings go to our emit_message instead: a warning
// that means the coded data is damaged ends the decode at once and fails the file; the few that
// concern metadata only are ignored. output_message never prints.
//
// libjpeg reports fatal errors through error_exit, which must not return: it longjmps back to
// the setjmp in Decompressor::run, whose frame holds no object with a destructor (a longjmp over
// one would skip it).
#include "jpeg_decoder.hpp"
#include "guard.hpp"

#include <csetjmp>
#include <cstdio>
#include <string>

#include <jpeglib.h>
#include <jerror.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Warnings that leave the picture intact: an unknown Adobe colour transform or JFIF revision,
/// sequential-scan parameters libjpeg ignores, a bad ICC marker (metadata we do not read), and
/// too many scanlines (our own misuse, which cannot happen). Every other warning says the coded
/// data is damaged: "Corrupt JPEG data: ..." (premature end of data segment, bad Huffman or
/// arithmetic code, extraneous bytes before a marker, a marker instead of RSTn), "Premature end
/// of JPEG file", an inconsistent progression sequence.
bool is_harmless(int code) {
    return code == JWRN_ADOBE_XFORM || code == JWRN_JFIF_MAJOR || code == JWRN_NOT_SEQUENTIAL ||
           code == JWRN_BOGUS_ICC || code == JWRN_TOO_MUCH_DATA;
}

struct ErrorManager {
    jpeg_error_mgr pub;   // first, so that a j_common_ptr's err can be cast to ErrorManager
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = {};
    bool corrupt = false;
};

ErrorManager &manager(j_common_ptr info) { return *reinterpret_cast<ErrorManager *>(info->err); }

[[noreturn]] void error_exit(j_common_ptr info) {
    ErrorManager &errors = manager(info);
    info->err->format_message(info, errors.message);
    std::longjmp(errors.jump, 1);
}

/// msg_level -1 is a warning; 0 and above are trace messages, which are dropped.
void emit_message(j_common_ptr info, int msg_level) {
    if (msg_level >= 0) return;
    info->err->num_warnings++;
    if (is_harmless(info->err->msg_code)) return;
    ErrorManager &errors = manager(info);
    errors.corrupt = true;
    info->err->format_message(info, errors.message);
    std::longjmp(errors.jump, 1);   // the rest of the picture would be made up: stop now
}

void output_message(j_common_ptr) {}

/// Adobe CMYK as OpenCV's JPEG reader converts it (icvCvt_CMYK2BGR_8u_C4C3R), so that such files
/// keep the pixels they had when OpenCV decoded them.
void cmyk_to_bgr(const uint8_t *cmyk, uint8_t *bgr, size_t width) {
    for (size_t i = 0; i < width; ++i, cmyk += 4, bgr += 3) {
        int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        bgr[2] = uint8_t(k - ((255 - c) * k >> 8));
        bgr[1] = uint8_t(k - ((255 - m) * k >> 8));
        bgr[0] = uint8_t(k - ((255 - y) * k >> 8));
    }
}

class Decompressor {
public:
    Decompressor() {
        info_.err = jpeg_std_error(&errors_.pub);
        errors_.pub.error_exit = error_exit;
        errors_.pub.emit_message = emit_message;
        errors_.pub.output_message = output_message;
    }
    ~Decompressor() {
        if (created_) jpeg_destroy_decompress(&info_);
    }
    Decompressor(const Decompressor &) = delete;
    Decompressor &operator=(const Decompressor &) = delete;

    /// Decodes into *out (and *cmyk_row for CMYK files); false when libjpeg failed or reported
    /// corrupt data, with the reason in message(). Only trivially destructible locals live in
    /// this frame, which error_exit and emit_message longjmp back to.
    bool run(const std::vector<uint8_t> &bytes, int reduction, cv::Mat *out, cv::Mat *cmyk_row) {
        if (setjmp(errors_.jump) != 0) return false;
        jpeg_create_decompress(&info_);
        created_ = true;
        jpeg_mem_src(&info_, bytes.data(), (unsigned long)bytes.size());
        jpeg_read_header(&info_, TRUE);
        info_.scale_num = 1;
        info_.scale_denom = (unsigned int)reduction;
        const bool cmyk = info_.jpeg_color_space == JCS_CMYK || info_.jpeg_color_space == JCS_YCCK;
        // libjpeg-turbo converts grey, YCbCr and RGB straight to BGR (grey is replicated).
        info_.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGR;
        jpeg_start_decompress(&info_);
        const int width = int(info_.output_width), height = int(info_.output_height);
        out->create(height, width, CV_8UC3);   // may throw std::bad_alloc: no libjpeg frame is crossed
        if (cmyk) cmyk_row->create(1, width, CV_8UC4);
        while (info_.output_scanline < info_.output_height) {
            const int y = int(info_.output_scanline);
            JSAMPROW row = cmyk ? cmyk_row->ptr<uint8_t>(0) : out->ptr<uint8_t>(y);
            if (jpeg_read_scanlines(&info_, &row, 1) != 1) return false;
            if (cmyk) cmyk_to_bgr(cmyk_row->ptr<uint8_t>(0), out->ptr<uint8_t>(y), size_t(width));
        }
        jpeg_finish_decompress(&info_);
        return true;
    }

    /// Reads the header only into *width and *height; false as run.
    bool read_size(const std::vector<uint8_t> &bytes, int64_t *width, int64_t *height) {
        if (setjmp(errors_.jump) != 0) return false;
        jpeg_create_decompress(&info_);
        created_ = true;
        jpeg_mem_src(&info_, bytes.data(), (unsigned long)bytes.size());
        jpeg_read_header(&info_, TRUE);
        *width = int64_t(info_.image_width);
        *height = int64_t(info_.image_height);
        return true;
    }

    /// Throws the failure run or read_size reported.
    [[noreturn]] void fail() const {
        if (errors_.corrupt) throw fk::failure(FK_NOT_AN_IMAGE, "corrupt image data (libjpeg: " + message() + ")");
        const std::string reason = message();
        throw fk::failure(FK_NOT_AN_IMAGE, "corrupt JPEG: " + (reason.empty() ? std::string("no data") : reason));
    }

    bool corrupt() const { return errors_.corrupt; }
    std::string message() const { return errors_.message; }

private:
    jpeg_decompress_struct info_{};
    ErrorManager errors_{};
    bool created_ = false;
};

}  // namespace

cv::Mat fk::decode_jpeg(const std::vector<uint8_t> &bytes, int reduction) {
    Decompressor decompressor;
    cv::Mat image, cmyk_row;
    if (!decompressor.run(bytes, reduction, &image, &cmyk_row)) decompressor.fail();
    return image;
}

std::pair<int64_t, int64_t> fk::jpeg_size(const std::vector<uint8_t> &bytes) {
    Decompressor decompressor;
    int64_t width = 0, height = 0;
    if (!decompressor.read_size(bytes, &width, &height)) decompressor.fail();
    return {width, height};
}

#pragma GCC visibility pop

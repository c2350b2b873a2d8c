// Image decoding: file and memory input, header-size check, truncation and plausibility checks,
// EXIF orientation, JPEG through libjpeg (reduced-size too), PNG through libpng, HEIF through
// libheif, the other formats through OpenCV.
#include "CFaceKit.h"
#include "byte_order.hpp"
#include "file_input.hpp"
#include "guard.hpp"
#include "heif_decoder.hpp"
#include "image.hpp"
#include "jpeg_decoder.hpp"
#include "native_logging.hpp"
#include "opencv_codecs.hpp"
#include "png_decoder.hpp"

#include <opencv2/imgcodecs.hpp>  // its constants; its functions through opencv_codecs.hpp
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

using Bytes = std::vector<uint8_t>;

using fk::be16;
using fk::be32;
using fk::le16;
using fk::le24;
using fk::le32;

bool is_jpeg(const Bytes &b) { return b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF; }

/// Width and height from the file header, for the formats whose header is cheap to read (PNG,
/// BMP, WebP; a JPEG's size is libjpeg's, fk::jpeg_size); nullopt when the format is another one
/// (OpenCV's own limit then applies).
std::optional<std::pair<int64_t, int64_t>> header_size(const Bytes &b) {
    const size_t n = b.size();
    if (n >= 24 && fk::is_png(b))
        return std::make_pair(int64_t(be32(&b[16])), int64_t(be32(&b[20])));
    if (n >= 26 && b[0] == 'B' && b[1] == 'M') {
        // OS/2 1.x's BITMAPCOREHEADER (12 bytes) has 16-bit sides; every later header 32-bit
        // ones, the height negative for rows stored top-down.
        if (le32(&b[14]) == 12) return std::make_pair(int64_t(le16(&b[18])), int64_t(le16(&b[20])));
        int32_t h = int32_t(le32(&b[22]));
        return std::make_pair(int64_t(int32_t(le32(&b[18]))), int64_t(h < 0 ? -int64_t(h) : h));
    }
    if (n >= 30 && std::memcmp(b.data(), "RIFF", 4) == 0 && std::memcmp(&b[8], "WEBP", 4) == 0) {
        if (std::memcmp(&b[12], "VP8X", 4) == 0)
            return std::make_pair(int64_t(le24(&b[24])) + 1, int64_t(le24(&b[27])) + 1);
        if (std::memcmp(&b[12], "VP8L", 4) == 0 && n >= 25) {
            uint32_t bits = le32(&b[21]);
            return std::make_pair(int64_t(bits & 0x3FFF) + 1, int64_t((bits >> 14) & 0x3FFF) + 1);
        }
        if (std::memcmp(&b[12], "VP8 ", 4) == 0)
            return std::make_pair(int64_t(le16(&b[26]) & 0x3FFF), int64_t(le16(&b[28]) & 0x3FFF));
        return std::nullopt;
    }
    return std::nullopt;
}

/// An OS/2 1.x bitmap (BITMAPCOREHEADER, 12 bytes): OpenCV's BMP reader never marks its 24-bit
/// pictures as colour, so IMREAD_ANYCOLOR would read them grey.
bool is_os2_bitmap(const Bytes &b) { return b.size() >= 26 && b[0] == 'B' && b[1] == 'M' && le32(&b[14]) == 12; }

/// A JPEG's last scan (SOS, FFDA) must be followed by its end-of-image marker (FFD9). Inside
/// entropy-coded data every FF byte is stuffed, so neither marker can appear by accident.
bool jpeg_is_truncated(const Bytes &b) {
    size_t last_sos = 0, last_eoi = 0;
    for (size_t i = 0; i + 1 < b.size(); ++i) {
        if (b[i] != 0xFF) continue;
        if (b[i + 1] == 0xDA) last_sos = i;
        else if (b[i + 1] == 0xD9) last_eoi = i;
    }
    return last_sos == 0 || last_eoi < last_sos;
}

/// The EXIF Orientation (1...8) of a JPEG, from its first APP1 "Exif" segment; 1 when there is
/// none or it is out of range.
int jpeg_exif_orientation(const Bytes &b) {
    const size_t n = b.size();
    size_t i = 2;
    while (i + 4 <= n && b[i] == 0xFF) {
        uint8_t marker = b[i + 1];
        if (marker == 0xFF) { ++i; continue; }
        if (marker == 0xDA || marker == 0xD9) break;   // image data: no metadata after this
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) { i += 2; continue; }   // TEM, RSTn: no length
        size_t length = be16(&b[i + 2]);
        size_t start = i + 4, end = std::min(n, i + 2 + length);
        if (marker == 0xE1 && end >= start + 14 && std::memcmp(&b[start], "Exif\0\0", 6) == 0) {
            const uint8_t *tiff = &b[start + 6];
            const size_t size = end - start - 6;
            const bool little = tiff[0] == 'I' && tiff[1] == 'I';
            if (!little && !(tiff[0] == 'M' && tiff[1] == 'M')) return 1;
            auto u16 = [&](size_t at) { return little ? le16(tiff + at) : be16(tiff + at); };
            auto u32 = [&](size_t at) { return little ? le32(tiff + at) : be32(tiff + at); };
            size_t ifd = u32(4);
            if (ifd + 2 > size) return 1;
            size_t entries = u16(ifd);
            for (size_t e = 0; e < entries && ifd + 2 + 12 * (e + 1) <= size; ++e) {
                size_t entry = ifd + 2 + 12 * e;
                if (u16(entry) == 0x0112) {
                    uint32_t value = u16(entry + 8);
                    return value >= 1 && value <= 8 ? int(value) : 1;
                }
            }
            return 1;
        }
        i += 2 + length;
    }
    return 1;
}

/// The reduction (8, 4, 2 or 1) for a JPEG whose stored size is w x h: the largest whose upright
/// width, ceil(width / r) as libjpeg computes it, is still at least min_width.
int jpeg_reduction(const Bytes &b, int64_t w, int64_t h, int32_t min_width) {
    if (min_width <= 0) return 1;
    const int orientation = jpeg_exif_orientation(b);
    const int64_t upright_width = orientation >= 5 ? h : w;   // 5...8 turn the image a quarter
    for (int r : {8, 4, 2})
        if ((upright_width + r - 1) / r >= min_width) return r;
    return 1;
}

cv::Mat to_bgr8(const cv::Mat &decoded) {
    cv::Mat m = decoded;
    if (m.depth() != CV_8U) {
        double scale = m.depth() == CV_16U ? 1.0 / 257.0 : m.depth() == CV_32F ? 255.0 : 1.0;
        m.convertTo(m, CV_8U, scale);
    }
    cv::Mat out;
    switch (m.channels()) {
    case 1: cv::cvtColor(m, out, cv::COLOR_GRAY2BGR); break;
    case 3: out = m; break;
    case 4: cv::cvtColor(m, out, cv::COLOR_BGRA2BGR); break;
    default: throw fk::failure(FK_NOT_AN_IMAGE, "unsupported number of channels");
    }
    return out;
}

void check_pixel_limit(int64_t w, int64_t h, int64_t max_pixels) {
    // A PNG header's sides reach 2^32 - 1, whose product does not fit an int64_t: one that
    // overflows is over any limit (wrapped, it came out negative and passed; found by fuzzing).
    int64_t pixels = 0;
    if (max_pixels > 0 && (__builtin_mul_overflow(w, h, &pixels) || pixels > max_pixels))
        throw fk::failure(FK_IMAGE_TOO_LARGE, std::to_string(w) + "x" + std::to_string(h) +
                                                  " pixels is over the limit of " + std::to_string(max_pixels));
}

/// Whether a JPEG file of `bytes` bytes can hold w x h pixels.
///
/// Huffman-coded JPEG (baseline, extended and progressive: what cameras, phones and libraries
/// write) spends at least one bit on every 8x8 block of its largest component: the code of the
/// block's DC coefficient in the first scan that covers it, and Huffman codes are 1 to 16 bits
/// long. So w x h pixels take at least w*h/64 bits of coded data, w*h/512 bytes, and the file is
/// larger still (markers, tables, metadata). A smaller file claims pixels it cannot contain: it
/// is truncated, or made to have the decoder allocate and fill w x h x 3 bytes from nothing (a
/// 633-byte file claiming 9000x9000 took 1 GB and 24 s). The bound is exact for Huffman coding,
/// so no real photo is refused; only arithmetic-coded JPEG (SOF9-SOF15, which patents kept out
/// of use) can spend less than a bit on a flat block, so such a file of a nearly uniform picture
/// could be refused, and it has no face to find.
bool jpeg_size_is_plausible(size_t bytes, int64_t w, int64_t h) { return int64_t(bytes) * 512 >= w * h; }

/// Turns a JPEG decoded as stored upright by its EXIF orientation (1...8), exactly as OpenCV's
/// imdecode did when it decoded JPEG here (ExifTransform in loadsave.cpp).
cv::Mat apply_orientation(const cv::Mat &stored, int orientation) {
    cv::Mat out;
    switch (orientation) {
    case 2: cv::flip(stored, out, 1); break;    // mirrored left-right
    case 3: cv::flip(stored, out, -1); break;   // turned 180 degrees
    case 4: cv::flip(stored, out, 0); break;    // mirrored top-bottom
    case 5: cv::transpose(stored, out); break;
    case 6: cv::transpose(stored, out); cv::flip(out, out, 1); break;    // turned 90 degrees clockwise
    case 7: cv::transpose(stored, out); cv::flip(out, out, -1); break;
    case 8: cv::transpose(stored, out); cv::flip(out, out, 0); break;    // turned 90 degrees anticlockwise
    default: out = stored; break;
    }
    return out;
}

/// Decodes a complete JPEG whose header gives w x h: refused before decoding when implausibly
/// small, then decoded by libjpeg at the reduction min_width allows (written to *reduction) and
/// turned upright.
std::unique_ptr<fk_image> decode_jpeg_file(const Bytes &bytes, int64_t w, int64_t h, int32_t min_width,
                                           int32_t *reduction) {
    if (!jpeg_size_is_plausible(bytes.size(), w, h))
        throw fk::failure(FK_NOT_AN_IMAGE, "truncated or corrupt JPEG: " + std::to_string(bytes.size()) +
                                               " bytes cannot hold " + std::to_string(w) + "x" + std::to_string(h) +
                                               " pixels");
    const int r = jpeg_reduction(bytes, w, h, min_width);
    cv::Mat upright = apply_orientation(fk::decode_jpeg(bytes, r), jpeg_exif_orientation(bytes));
    *reduction = r;
    return std::make_unique<fk_image>(fk_image{upright});
}

/// Decodes bytes; a JPEG at the reduction min_width allows (jpeg_reduction), written to
/// *reduction, every other format at full size.
std::unique_ptr<fk_image> decode(const Bytes &bytes, int64_t max_pixels, int32_t min_width, int32_t *reduction) {
    fk::silence_native_logging();
    *reduction = 1;
    if (bytes.empty()) throw fk::failure(FK_NOT_AN_IMAGE, "empty file");
    if (fk::is_heif(bytes)) {
        fk::HeifImage heif(bytes);   // reads the boxes only: the size is known before decoding
        check_pixel_limit(heif.width(), heif.height(), max_pixels);
        return std::make_unique<fk_image>(fk_image{heif.decode()});
    }
    if (is_jpeg(bytes)) {
        if (jpeg_is_truncated(bytes)) throw fk::failure(FK_NOT_AN_IMAGE, "truncated JPEG (no end-of-image marker)");
        const auto [w, h] = *fk::declared_image_size(bytes);
        if (w <= 0 || h <= 0) throw fk::failure(FK_NOT_AN_IMAGE, "header gives no image size");
        check_pixel_limit(w, h, max_pixels);
        return decode_jpeg_file(bytes, w, h, min_width, reduction);
    }
    auto size = fk::declared_image_size(bytes);
    if (size) {
        auto [w, h] = *size;
        if (w <= 0 || h <= 0) throw fk::failure(FK_NOT_AN_IMAGE, "header gives no image size");
        check_pixel_limit(w, h, max_pixels);
    }
    if (fk::is_png(bytes)) return std::make_unique<fk_image>(fk_image{fk::decode_png(bytes)});
    // IMREAD_ANYDEPTH keeps 16-bit samples for our own scaling; IMREAD_ANYCOLOR keeps grey and
    // alpha for explicit conversion (an OS/2 bitmap, which has neither, is read in colour). EXIF
    // orientation is applied where OpenCV reads it.
    cv::Mat decoded;
    try {
        fk::QuietStandardError quiet;
        decoded = fk::imdecode(bytes, is_os2_bitmap(bytes) ? cv::IMREAD_COLOR : cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR);
    } catch (const cv::Exception &e) {
        throw fk::failure(FK_NOT_AN_IMAGE, std::string("decoder failed: ") + e.err);
    }
    if (decoded.empty()) throw fk::failure(FK_NOT_AN_IMAGE, "unknown format or corrupt data");
    if (!size) check_pixel_limit(decoded.cols, decoded.rows, max_pixels);
    return std::make_unique<fk_image>(fk_image{to_bgr8(decoded)});
}

}  // namespace

std::optional<std::pair<int64_t, int64_t>> fk::declared_image_size(const Bytes &bytes) {
    if (fk::is_heif(bytes)) {
        fk::HeifImage heif(bytes);   // the boxes only
        return std::make_pair(int64_t(heif.width()), int64_t(heif.height()));
    }
    // libjpeg's own reading of the markers: the size it will decode, whatever markers come
    // before the frame (a walk of our own once took FF01, which has no length, for a segment
    // and saw a fake 1x4 frame in front of a 16000x16000 one).
    if (is_jpeg(bytes)) return fk::jpeg_size(bytes);
    return header_size(bytes);
}

extern "C" int32_t fk_image_create_from_file(const char *path, int64_t max_pixels, fk_image **out,
                                             fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr, "path and out must not be NULL");
        int32_t reduction;
        *out = decode(fk::read_regular_file(path), max_pixels, 0, &reduction).release();
    });
}

extern "C" int32_t fk_image_create_from_file_reduced(const char *path, int64_t max_pixels, int32_t min_width,
                                                     fk_image **out, int32_t *reduction, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(path != nullptr && out != nullptr && reduction != nullptr,
                    "path, out and reduction must not be NULL");
        fk::require(min_width >= 0, "min_width must not be negative");
        int32_t r;
        auto image = decode(fk::read_regular_file(path), max_pixels, min_width, &r);
        *out = image.release();
        *reduction = r;
    });
}

extern "C" int32_t fk_image_create_from_encoded(const uint8_t *bytes, size_t count, int64_t max_pixels,
                                                fk_image **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(out != nullptr && (bytes != nullptr || count == 0), "bytes and out must not be NULL");
        int32_t reduction;
        *out = decode(Bytes(bytes, bytes + count), max_pixels, 0, &reduction).release();
    });
}

extern "C" int32_t fk_image_create_from_pixels(const uint8_t *pixels, int32_t width, int32_t height,
                                               int32_t bytes_per_row, int32_t format, fk_image **out,
                                               fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(pixels != nullptr && out != nullptr, "pixels and out must not be NULL");
        fk::require(width > 0 && height > 0, "width and height must be positive");
        static const int channels[] = {1, 3, 3, 4, 4};
        static const int codes[] = {cv::COLOR_GRAY2BGR, cv::COLOR_RGB2BGR, -1, cv::COLOR_RGBA2BGR,
                                    cv::COLOR_BGRA2BGR};
        fk::require(format >= FK_PIXEL_GRAY8 && format <= FK_PIXEL_BGRA8, "unknown pixel format");
        fk::require(int64_t(bytes_per_row) >= int64_t(width) * channels[format], "bytes_per_row is less than a row");
        cv::Mat view(height, width, CV_8UC(channels[format]), const_cast<uint8_t *>(pixels),
                     size_t(bytes_per_row));
        auto image = std::make_unique<fk_image>();
        if (codes[format] < 0) view.copyTo(image->bgr);
        else cv::cvtColor(view, image->bgr, codes[format]);
        *out = image.release();
    });
}

extern "C" void fk_image_free(fk_image *image) { const fk::native_call call; delete image; }

extern "C" int32_t fk_image_get_size(const fk_image *image, int32_t *width, int32_t *height,
                                     fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && width != nullptr && height != nullptr, "NULL argument");
        *width = image->bgr.cols;
        *height = image->bgr.rows;
    });
}

#pragma GCC visibility pop

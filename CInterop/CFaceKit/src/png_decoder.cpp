// PNG decoding through libpng's simplified API, which keeps warnings (such as the common
// "iCCP: known incorrect sRGB profile") in a message field instead of printing them to stderr
// the way OpenCV's PNG reader lets libpng do.
#include "png_decoder.hpp"
#include "byte_order.hpp"
#include "guard.hpp"

#include <png.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <opencv2/imgproc.hpp>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

bool fk::is_png(const std::vector<uint8_t> &bytes) {
    return bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0;
}

namespace {

constexpr size_t header_end = 8 + 8 + 13 + 4;  // the signature, then IHDR with its CRC

bool is_16_bit(const std::vector<uint8_t> &bytes) {
    return bytes.size() >= header_end && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0 && bytes[24] == 16;
}

/// A 16-bit PNG with its samples declared sRGB-encoded, as OpenCV (which ignores colour chunks)
/// and every 8-bit PNG take them. libpng's simplified API takes a 16-bit
/// file's samples as linear light unless a colour chunk says otherwise, and gamma-encodes them
/// for 8-bit output: libpng 1.6.48 (Debian 13) did so for a file with an ICC profile that 1.6.39
/// took as sRGB, 40 grey levels brighter on average. The colour chunks before the image data
/// (gAMA, sRGB, iCCP, cHRM, cICP) give way to one sRGB chunk after the header.
std::vector<uint8_t> with_samples_as_srgb(const std::vector<uint8_t> &bytes) {
    // The sRGB chunk, rendering intent 0 (perceptual), with its CRC.
    static const uint8_t srgb[] = {0, 0, 0, 1, 's', 'R', 'G', 'B', 0, 0xAE, 0xCE, 0x1C, 0xE9};
    std::vector<uint8_t> out(bytes.begin(), bytes.begin() + header_end);
    out.insert(out.end(), std::begin(srgb), std::end(srgb));
    size_t at = header_end;
    while (at + 8 <= bytes.size()) {
        const char *type = reinterpret_cast<const char *>(bytes.data() + at + 4);
        const uint64_t end = uint64_t(at) + 12 + fk::be32(bytes.data() + at);
        if (std::memcmp(type, "IDAT", 4) == 0 || end > bytes.size()) break;  // libpng judges the rest
        const bool colour = std::memcmp(type, "gAMA", 4) == 0 || std::memcmp(type, "sRGB", 4) == 0 ||
                            std::memcmp(type, "iCCP", 4) == 0 || std::memcmp(type, "cHRM", 4) == 0 ||
                            std::memcmp(type, "cICP", 4) == 0;
        if (!colour) out.insert(out.end(), bytes.begin() + long(at), bytes.begin() + long(end));
        at = size_t(end);
    }
    out.insert(out.end(), bytes.begin() + long(at), bytes.end());
    return out;
}

}  // namespace

cv::Mat fk::decode_png(const std::vector<uint8_t> &encoded) {
    std::vector<uint8_t> rewritten;
    const std::vector<uint8_t> &bytes = is_16_bit(encoded) ? (rewritten = with_samples_as_srgb(encoded)) : encoded;
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
        throw failure(FK_NOT_AN_IMAGE, std::string("corrupt PNG: ") + image.message);
    // Alpha is kept and then dropped without compositing, as for every other format.
    image.format = PNG_FORMAT_BGRA;
    cv::Mat bgra(int(image.height), int(image.width), CV_8UC4);
    if (!png_image_finish_read(&image, nullptr, bgra.data, int(bgra.step[0]), nullptr)) {
        std::string reason = image.message;
        png_image_free(&image);
        throw failure(FK_NOT_AN_IMAGE, "corrupt or truncated PNG: " + reason);
    }
    cv::Mat bgr;
    cv::cvtColor(bgra, bgr, cv::COLOR_BGRA2BGR);
    return bgr;
}

#pragma GCC visibility pop

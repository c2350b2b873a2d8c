// PNG decoding through libpng's simplified API, which keeps warnings (such as the common
// "iCCP: known incorrect sRGB profile") in a message field instead of printing them to stderr
// the way OpenCV's PNG reader lets libpng do.
#include "png_decoder.hpp"
#include "guard.hpp"

#include <png.h>

#include <cstring>
#include <opencv2/imgproc.hpp>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

bool fk::is_png(const std::vector<uint8_t> &bytes) {
    return bytes.size() >= 8 && std::memcmp(bytes.data(), "\x89PNG\r\n\x1a\n", 8) == 0;
}

cv::Mat fk::decode_png(const std::vector<uint8_t> &bytes) {
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

// Getting images out of the shim: raw pixel copies and encoded files (PNG, JPEG, ...).
#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// The encoders this shim offers, by lower-case extension, and whether quality applies.
struct Encoder {
    const char *extension;
    int quality_parameter;  // -1: lossless, quality ignored
};

const Encoder kEncoders[] = {
    {"png", -1},  {"bmp", -1},  {"dib", -1},  {"tif", -1},
    {"tiff", -1}, {"jpg", cv::IMWRITE_JPEG_QUALITY}, {"jpeg", cv::IMWRITE_JPEG_QUALITY},
    {"jpe", cv::IMWRITE_JPEG_QUALITY}, {"webp", cv::IMWRITE_WEBP_QUALITY},
};

const Encoder &encoder(const char *file_extension) {
    std::string extension(file_extension);
    if (!extension.empty() && extension[0] == '.') extension.erase(0, 1);
    for (auto &c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (const auto &candidate : kEncoders)
        if (extension == candidate.extension) return candidate;
    throw fk::failure(FK_INVALID_ARGUMENT, "no image encoder for the extension '" + std::string(file_extension) +
                                               "' (png, jpg, jpeg, jpe, bmp, dib, tif, tiff, webp)");
}

}  // namespace

extern "C" int32_t fk_image_copy_pixels(const fk_image *image, int32_t format, uint8_t *out, size_t capacity,
                                        int32_t bytes_per_row, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && out != nullptr, "image and out must not be NULL");
        fk::require(format >= FK_PIXEL_GRAY8 && format <= FK_PIXEL_BGRA8, "unknown pixel format");
        static const int channels[] = {1, 3, 3, 4, 4};
        static const int codes[] = {cv::COLOR_BGR2GRAY, cv::COLOR_BGR2RGB, -1, cv::COLOR_BGR2RGBA,
                                    cv::COLOR_BGR2BGRA};
        const cv::Mat &source = image->bgr;
        const size_t row = size_t(source.cols) * size_t(channels[format]);
        fk::require(bytes_per_row >= 0 && size_t(bytes_per_row) >= row, "bytes_per_row is less than a row");
        fk::require(capacity >= size_t(bytes_per_row) * size_t(source.rows - 1) + row,
                    "capacity does not hold the image");
        cv::Mat view(source.rows, source.cols, CV_8UC(channels[format]), out, size_t(bytes_per_row));
        if (codes[format] < 0) source.copyTo(view);
        else cv::cvtColor(source, view, codes[format]);
        // cvtColor and copyTo write into the caller's buffer only if the sizes match, as here.
        fk::require(view.data == out, "internal: pixel copy was reallocated");
    });
}

extern "C" int32_t fk_image_encode(const fk_image *image, const char *file_extension, int32_t quality,
                                   uint8_t **bytes, size_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && file_extension != nullptr && bytes != nullptr && count != nullptr,
                    "NULL argument");
        fk::require(quality >= 1 && quality <= 100, "quality must be in 1 ... 100");
        const Encoder &chosen = encoder(file_extension);
        fk::silence_native_logging();
        std::vector<int> parameters;
        if (chosen.quality_parameter >= 0) parameters = {chosen.quality_parameter, quality};
        // zlib's usual level: about a third smaller than OpenCV's default of 1, still quick.
        if (std::strcmp(chosen.extension, "png") == 0) parameters = {cv::IMWRITE_PNG_COMPRESSION, 6};
        std::vector<uchar> encoded;
        bool ok = false;
        try {
            ok = cv::imencode(std::string(".") + chosen.extension, image->bgr, encoded, parameters);
        } catch (const cv::Exception &e) {
            throw fk::failure(FK_INTERNAL, std::string("encoder failed: ") + e.err);
        }
        if (!ok || encoded.empty()) throw fk::failure(FK_INTERNAL, "encoder failed");
        auto buffer = static_cast<uint8_t *>(std::malloc(encoded.size()));
        if (buffer == nullptr) throw std::bad_alloc();
        std::memcpy(buffer, encoded.data(), encoded.size());
        *bytes = buffer;
        *count = encoded.size();
    });
}

extern "C" void fk_bytes_free(uint8_t *bytes) { std::free(bytes); }

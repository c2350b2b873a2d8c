// Getting images out of the shim: raw pixel copies and encoded files (PNG, JPEG, ...).
#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"
#include "native_logging.hpp"
#include "opencv_codecs.hpp"

#include <opencv2/imgcodecs.hpp>  // its constants; its functions through opencv_codecs.hpp
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

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

extern "C" int32_t fk_image_sample_gray(const fk_image *image, const float affine[6], int32_t width,
                                        int32_t height, uint8_t *out, size_t capacity, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && affine != nullptr && out != nullptr, "image, affine and out must not be NULL");
        fk::require(width >= 1 && width <= 1024 && height >= 1 && height <= 1024, "patch size out of range");
        fk::require(capacity >= size_t(width) * size_t(height), "capacity does not hold the patch");
        for (int i = 0; i < 6; ++i) fk::require(std::isfinite(affine[i]), "affine has a non-finite entry");
        const cv::Mat &source = image->bgr;
        // Only the region the patch maps from (plus a pixel for interpolation) is made grey.
        float xs[4], ys[4];
        const float corners[4][2] = {{0, 0}, {float(width), 0}, {0, float(height)}, {float(width), float(height)}};
        for (int i = 0; i < 4; ++i) {
            xs[i] = affine[0] * corners[i][0] + affine[1] * corners[i][1] + affine[2];
            ys[i] = affine[3] * corners[i][0] + affine[4] * corners[i][1] + affine[5];
        }
        const auto clampTo = [](float v, int high) { return std::max(0, std::min(high, int(v))); };
        const int x0 = clampTo(std::floor(*std::min_element(xs, xs + 4)) - 1, source.cols - 1);
        const int y0 = clampTo(std::floor(*std::min_element(ys, ys + 4)) - 1, source.rows - 1);
        const int x1 = clampTo(std::ceil(*std::max_element(xs, xs + 4)) + 2, source.cols);
        const int y1 = clampTo(std::ceil(*std::max_element(ys, ys + 4)) + 2, source.rows);
        const cv::Rect region(x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0));
        cv::Mat grey;
        if (!image->grey.empty()) {
            grey = image->grey(region);
        } else {
            cv::cvtColor(source(region), grey, cv::COLOR_BGR2GRAY);
        }
        const cv::Matx23d map(affine[0], affine[1], affine[2] - x0, affine[3], affine[4], affine[5] - y0);
        cv::Mat view(height, width, CV_8UC1, out);
        cv::warpAffine(grey, view, map, view.size(), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
        fk::require(view.data == out, "internal: patch was reallocated");
    });
}

extern "C" int32_t fk_image_resize(const fk_image *image, fk_rect region, int32_t width, int32_t height,
                                   fk_image **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && out != nullptr, "image and out must not be NULL");
        fk::require(width >= 1 && width <= 8192 && height >= 1 && height <= 8192, "size out of range 1 ... 8192");
        fk::require(std::isfinite(region.x) && std::isfinite(region.y) && std::isfinite(region.width) &&
                        std::isfinite(region.height),
                    "region has a non-finite value");
        const cv::Mat &source = image->bgr;
        const int x0 = std::max(0, int(std::floor(region.x)));
        const int y0 = std::max(0, int(std::floor(region.y)));
        const int x1 = std::min(source.cols, int(std::ceil(double(region.x) + region.width)));
        const int y1 = std::min(source.rows, int(std::ceil(double(region.y) + region.height)));
        fk::require(x1 > x0 && y1 > y0, "region holds no pixel of the image");
        const cv::Mat cut = source(cv::Rect(x0, y0, x1 - x0, y1 - y0));
        const bool shrinking = width <= cut.cols && height <= cut.rows;
        auto resized = std::make_unique<fk_image>();
        cv::resize(cut, resized->bgr, cv::Size(width, height), 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
        *out = resized.release();
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
            ok = fk::imencode(std::string(".") + chosen.extension, image->bgr, encoded, parameters);
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

extern "C" void fk_bytes_free(uint8_t *bytes) { const fk::native_call call; std::free(bytes); }

extern "C" int32_t fk_image_warp(const fk_image *image, const float affine[6], int32_t width, int32_t height,
                                 int32_t border, fk_image **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && affine != nullptr && out != nullptr, "image, affine and out must not be NULL");
        fk::require(width >= 1 && width <= 4096 && height >= 1 && height <= 4096, "size out of range");
        for (int i = 0; i < 6; ++i) fk::require(std::isfinite(affine[i]), "affine has a non-finite entry");
        fk::require(!image->bgr.empty(), "empty image");
        fk::require(border >= 0 && border <= 255, "border must be a grey level in 0 ... 255");
        auto warped = std::make_unique<fk_image>();
        const cv::Matx23d map(affine[0], affine[1], affine[2], affine[3], affine[4], affine[5]);
        cv::warpAffine(image->bgr, warped->bgr, map, cv::Size(width, height), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                       cv::BORDER_CONSTANT, cv::Scalar::all(border));
        *out = warped.release();
    });
}

#pragma GCC visibility pop

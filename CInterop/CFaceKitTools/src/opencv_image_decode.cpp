// Decoding an image with OpenCV's own imdecode: the reference for FaceKit's JPEG and PNG reading
// (jpeg_decoder.cpp and png_decoder.cpp call libjpeg and libpng directly).
#include "CFaceKitTools.h"
#include "guard.hpp"
#include "image.hpp"
#include "opencv_codecs.hpp"

#include <opencv2/imgcodecs.hpp>

#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_opencv_image_decode(const uint8_t *bytes, size_t count, int32_t reduction, fk_image **out,
                                          fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(bytes != nullptr && out != nullptr, "bytes and out must not be NULL");
        fk::require(count > 0 && count < (size_t(1) << 31), "count must be 1 ... 2^31 - 1");
        int flags = cv::IMREAD_COLOR;
        switch (reduction) {
        case 1: break;
        case 2: flags = cv::IMREAD_REDUCED_COLOR_2; break;
        case 4: flags = cv::IMREAD_REDUCED_COLOR_4; break;
        case 8: flags = cv::IMREAD_REDUCED_COLOR_8; break;
        default: fk::require(false, "reduction must be 1, 2, 4 or 8");
        }
        const cv::Mat encoded(1, int(count), CV_8UC1, const_cast<uint8_t *>(bytes));
        cv::Mat decoded = fk::imdecode(encoded, flags);
        if (decoded.empty()) throw fk::failure(FK_NOT_AN_IMAGE, "OpenCV decoded nothing");
        *out = std::make_unique<fk_image>(fk_image{decoded, cv::Mat()}).release();
    });
}

#pragma GCC visibility pop

// The definition behind the opaque fk_image handle, shared by the shim's source files.
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_image {
    cv::Mat bgr;   // CV_8UC3, upright
    cv::Mat grey;  // CV_8UC1, bgr made grey ahead (video frames, on the decoding thread), or empty

    /// bgr in grey: `grey` when it was made ahead, else converted into `scratch`.
    const cv::Mat &grey_or_convert(cv::Mat &scratch) const {
        if (!grey.empty()) return grey;
        cv::cvtColor(bgr, scratch, cv::COLOR_BGR2GRAY);
        return scratch;
    }
};

namespace fk {

/// The width and height an encoded image's header declares, as decoding checks them against the
/// pixel limit before it decodes: libjpeg's reading of a JPEG's markers (fk::jpeg_size), the
/// boxes of a HEIF file, the header of a PNG, a BMP (Windows or OS/2) or a WebP; nullopt for the
/// formats whose size is known only once decoded (OpenCV's bound then applies, and the limit is
/// checked on the decoded size). Throws fk::failure(FK_NOT_AN_IMAGE) where decoding would refuse
/// the header itself. What decodes must have this size (the header harness of scripts/fuzz
/// checks it; a JPEG or HEIF turned by its orientation has the sides swapped).
std::optional<std::pair<int64_t, int64_t>> declared_image_size(const std::vector<uint8_t> &bytes);

}  // namespace fk

#pragma GCC visibility pop

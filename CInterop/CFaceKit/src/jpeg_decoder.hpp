// JPEG decoding through libjpeg directly, so that its warnings become failures instead of
// stderr lines (see jpeg_decoder.cpp).
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Decodes a JPEG to 8-bit BGR as stored (no EXIF orientation applied), at 1 / reduction of its
/// size (reduction 1, 2, 4 or 8: libjpeg's DCT scaling, ceil(size / reduction) pixels a side).
/// Throws fk::failure(FK_NOT_AN_IMAGE) when libjpeg rejects the data, or reports it corrupt
/// ("Corrupt JPEG data: ...", "Premature end of JPEG file"); nothing is printed.
cv::Mat decode_jpeg(const std::vector<uint8_t> &bytes, int reduction);

/// The width and height of a JPEG's frame as libjpeg reads them (jpeg_read_header: the markers
/// up to the first scan, nothing decoded), so that a size limit sees what the decoder will
/// decode. Throws fk::failure(FK_NOT_AN_IMAGE) as decode_jpeg does when libjpeg rejects the
/// markers (no frame header before the image data, among others).
std::pair<int64_t, int64_t> jpeg_size(const std::vector<uint8_t> &bytes);

}  // namespace fk

#pragma GCC visibility pop

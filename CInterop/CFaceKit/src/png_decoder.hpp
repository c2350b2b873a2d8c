// PNG decoding that never writes to stderr (see png_decoder.cpp).
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

bool is_png(const std::vector<uint8_t> &bytes);

/// Decodes a PNG to 8-bit BGR; throws fk::failure(FK_NOT_AN_IMAGE) on corrupt data.
cv::Mat decode_png(const std::vector<uint8_t> &bytes);

}  // namespace fk

#pragma GCC visibility pop

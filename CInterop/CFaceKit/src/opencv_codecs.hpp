// OpenCV's image codecs (imgcodecs), loaded on first use: linked, the library and its 110
// dependencies (GDAL's among them) cost every start of the process about 90 ms of the dynamic
// loader's time, though FaceKit decodes JPEG, PNG and HEIF itself and needs imgcodecs only for
// other formats (BMP, TIFF, WebP, ...) and for writing images.
#pragma once

#include <opencv2/core.hpp>

#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// cv::imdecode. Throws fk::failure(FK_INTERNAL) when imgcodecs cannot be loaded.
cv::Mat imdecode(cv::InputArray bytes, int flags);

/// cv::imencode. Throws as imdecode does.
bool imencode(const std::string &extension, cv::InputArray image, std::vector<uchar> &encoded,
              const std::vector<int> &parameters);

}  // namespace fk

#pragma GCC visibility pop

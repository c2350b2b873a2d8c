// HEIF (HEIC, AVIF) decoding through libheif (see heif_decoder.cpp).
#pragma once

#include <opencv2/core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Whether bytes open with an ISO-BMFF ftyp box whose major or compatible brands name a HEIF
/// image (heic, heix, mif1, msf1, avif, ...). A video's ftyp (isom, mp41, qt) does not count.
bool is_heif(const std::vector<uint8_t> &bytes);

/// A HEIF file's primary image, opened but not yet decoded, so that its size can be checked
/// first. Throws fk::failure(FK_NOT_AN_IMAGE) when the container cannot be read.
class HeifImage {
public:
    /// bytes must outlive this object (libheif reads them without copying).
    explicit HeifImage(const std::vector<uint8_t> &bytes);
    ~HeifImage();
    HeifImage(const HeifImage &) = delete;
    HeifImage &operator=(const HeifImage &) = delete;

    /// Size of the displayed image, irot/imir/clap applied, as the header gives it.
    int width() const;
    int height() const;

    /// Decodes to upright 8-bit BGR: libheif applies the transformative properties (irot, imir,
    /// clap); an EXIF Orientation is not applied again (see CFaceKit.h). Throws
    /// fk::failure(FK_NOT_AN_IMAGE) for corrupt or truncated data.
    cv::Mat decode() const;

private:
    /// "corrupt HEIF: its header declares WxH pixels", for a picture that does not match it.
    std::string declared() const;

    struct Parts;
    std::unique_ptr<Parts> parts_;
};

}  // namespace fk

#pragma GCC visibility pop

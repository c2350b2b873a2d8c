// HEIF decoding (HEIC from phones, and AVIF) through libheif's C API.
//
// Orientation: a HEIF image is turned upright by its transformative properties (irot rotation,
// imir mirror, clap crop), which libheif applies while decoding unless told to ignore them.
// Phones also write an EXIF Orientation with the same meaning; ISO/IEC 23008-12 makes the
// properties authoritative and the EXIF value informative only, and libheif's maintainers say
// the same (libheif issues #227, #680): applying it as well would turn the image twice. So the
// EXIF block is never read here.
#include "heif_decoder.hpp"
#include "byte_order.hpp"
#include "guard.hpp"

#include <libheif/heif.h>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

using fk::be32;

/// Brands of HEIF images that libheif reads: HEVC-coded (heic, heix, heim, heis, hevc, hevx,
/// hevm, hevs), the structural brands (mif1, mif2, msf1) and AV1-coded (avif, avis).
bool is_heif_brand(const uint8_t *p) {
    static const char *const brands[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "hevm",
                                         "hevs", "mif1", "mif2", "msf1", "avif", "avis"};
    for (const char *brand : brands)
        if (std::memcmp(p, brand, 4) == 0) return true;
    return false;
}

bool is_av1_brand(const uint8_t *p) { return std::memcmp(p, "avif", 4) == 0 || std::memcmp(p, "avis", 4) == 0; }

/// Whether bytes open with an ftyp box whose major or a compatible brand satisfies matches.
bool any_brand(const std::vector<uint8_t> &bytes, bool (*matches)(const uint8_t *)) {
    if (bytes.size() < 16 || std::memcmp(&bytes[4], "ftyp", 4) != 0) return false;
    size_t end = std::min<size_t>(be32(bytes.data()), bytes.size());
    if (matches(&bytes[8])) return true;
    for (size_t i = 16; i + 4 <= end; i += 4)
        if (matches(&bytes[i])) return true;
    return false;
}

/// libheif registers its built-in codecs in heif_init; once for the process, never undone.
void init_libheif() {
    static const bool done = [] {
        heif_init(nullptr);
        return true;
    }();
    (void)done;
}

/// Whether libheif has libaom's AV1 decoder, "aom": built in up to libheif 1.16 (Debian 12), a
/// plugin package of its own from 1.17 on (Debian 13's libheif-plugin-aomdec, which scripts/setup
/// installs), so a system may lack it. Asked after heif_init, which loads the plugins.
bool has_aom_decoder() {
    static const bool has = [] {
        const heif_decoder_descriptor *descriptors[32];
        const int count = heif_get_decoder_descriptors(heif_compression_AV1, descriptors, 32);
        for (int i = 0; i < count; ++i) {
            const char *name = heif_decoder_descriptor_get_id_name(descriptors[i]);
            if (name != nullptr && std::strcmp(name, "aom") == 0) return true;
        }
        return false;
    }();
    return has;
}

/// Turns a libheif error into the shim's failure: libheif's own size limit (it refuses images
/// over 32768 px a side) is "too large", the rest is not an image we can read.
[[noreturn]] void fail(const heif_error &error, const char *context) {
    std::string message = error.message != nullptr ? error.message : "";
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back()))) message.pop_back();
    if (error.subcode == heif_suberror_Security_limit_exceeded)
        throw fk::failure(FK_IMAGE_TOO_LARGE, "HEIF image over libheif's limits: " + message);
    if (error.code == heif_error_Memory_allocation_error) throw std::bad_alloc();
    throw fk::failure(FK_NOT_AN_IMAGE, context + message);
}

}  // namespace

bool fk::is_heif(const std::vector<uint8_t> &bytes) { return any_brand(bytes, is_heif_brand); }

struct fk::HeifImage::Parts {
    heif_context *context = nullptr;
    heif_image_handle *handle = nullptr;
    bool av1 = false;
    ~Parts() {
        heif_image_handle_release(handle);
        heif_context_free(context);
    }
};

fk::HeifImage::HeifImage(const std::vector<uint8_t> &bytes) : parts_(std::make_unique<Parts>()) {
    init_libheif();
    parts_->av1 = any_brand(bytes, is_av1_brand);
    parts_->context = heif_context_alloc();
    if (parts_->context == nullptr) throw std::bad_alloc();
    heif_error error =
        heif_context_read_from_memory_without_copy(parts_->context, bytes.data(), bytes.size(), nullptr);
    if (error.code != heif_error_Ok) fail(error, "corrupt or truncated HEIF: ");
    error = heif_context_get_primary_image_handle(parts_->context, &parts_->handle);
    if (error.code != heif_error_Ok) fail(error, "corrupt HEIF (no primary image): ");
}

fk::HeifImage::~HeifImage() = default;

int fk::HeifImage::width() const { return heif_image_handle_get_width(parts_->handle); }

int fk::HeifImage::height() const { return heif_image_handle_get_height(parts_->handle); }

std::string fk::HeifImage::declared() const {
    return "corrupt HEIF: its header declares " + std::to_string(width()) + "x" + std::to_string(height()) + " pixels";
}

cv::Mat fk::HeifImage::decode() const {
    std::unique_ptr<heif_decoding_options, void (*)(heif_decoding_options *)> options(
        heif_decoding_options_alloc(), heif_decoding_options_free);
    if (!options) throw std::bad_alloc();
    options->ignore_transformations = 0;   // irot, imir and clap are applied
    if (options->version >= 2) options->convert_hdr_to_8bit = 1;
    if (options->version >= 3) options->strict_decoding = 1;   // damaged data fails, not half an image
    // AV1: libaom reports damaged data as an error and prints nothing; dav1d, libheif's first
    // choice, writes to stderr and lets some damage through. Without libaom, libheif's own
    // choice: Debian 12's libheif (1.15) ignores a decoder_id it lacks, Debian 13's refuses the
    // image ("No decoder with that ID found").
    if (parts_->av1 && options->version >= 4 && has_aom_decoder()) options->decoder_id = "aom";
    heif_image *decoded = nullptr;
    heif_error error = heif_decode_image(parts_->handle, &decoded, heif_colorspace_RGB,
                                         heif_chroma_interleaved_RGB, options.get());
    // The pixel limit was applied to the size the boxes declare (ispe, turned and cropped as they
    // say), and libheif's own limits to the header when it was read: a limit the decoding itself
    // exceeds is a picture larger than declared (libheif 1.23 checks the coded size against ispe
    // this way; 1.15 does not check, below).
    if (error.code != heif_error_Ok && error.subcode == heif_suberror_Security_limit_exceeded)
        throw fk::failure(FK_NOT_AN_IMAGE, declared() + ", its picture is larger (libheif: " +
                                               (error.message != nullptr ? error.message : "") + ")");
    if (error.code != heif_error_Ok) fail(error, "corrupt or truncated HEIF: ");
    std::unique_ptr<heif_image, void (*)(const heif_image *)> image(decoded, heif_image_release);
    int stride = 0;
    const uint8_t *pixels = heif_image_get_plane_readonly(image.get(), heif_channel_interleaved, &stride);
    int w = heif_image_get_primary_width(image.get());
    int h = heif_image_get_primary_height(image.get());
    if (pixels == nullptr || w <= 0 || h <= 0)
        throw fk::failure(FK_NOT_AN_IMAGE, "HEIF decoder returned no pixels");
    // libheif 1.15 does not check that the coded picture has the declared size, so a file that
    // declares 1x1 could decode at any size.
    if (w != width() || h != height())
        throw fk::failure(FK_NOT_AN_IMAGE, declared() + ", its picture has " + std::to_string(w) + "x" + std::to_string(h));
    cv::Mat rgb(h, w, CV_8UC3, const_cast<uint8_t *>(pixels), size_t(stride));
    cv::Mat bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);   // a copy: the heif_image is released on return
    return bgr;
}

#pragma GCC visibility pop

// libFuzzer harness for image decoding at the C boundary: any bytes, as a file FaceKit is asked
// to analyse, must come back as FK_OK or a status with a message, never a crash, a hang or an
// abort (scripts/fuzz builds and runs it; docs/architecture.md, "Fuzzing the C boundary").
//
// Each input goes through the two decoding entry points the library calls:
// fk_image_create_from_encoded (from memory, as FaceImage(data:) does) and
// fk_image_create_from_file_reduced (from a file, with libjpeg's DCT scaling, as
// FaceDetector.process(contentsOfFile:) does), and a decoded image is measured and copied out.
#include "CFaceKit.h"
#include "fuzz_checks.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

/// Bounds what a header may claim, so that one input cannot take gigabytes (the CLI's default
/// --max-pixels is 100,000,000; the size check is the same code whatever the bound).
constexpr int64_t max_pixels = 4'000'000;

void use(fk_image *image) {
    int32_t width = 0, height = 0;
    fk_error error{};
    fuzz::check_error(fk_image_get_size(image, &width, &height, &error), error);
    // max_pixels bounds only the sizes read from a header (PNG, JPEG, HEIF...); OpenCV's other
    // formats have its own bound, so a size is checked for sense, not against it.
    if (width <= 0 || height <= 0) {
        std::fprintf(stderr, "decoded to %dx%d\n", width, height);
        std::abort();
    }
    std::vector<uint8_t> pixels(size_t(width) * size_t(height) * 3);
    fuzz::check_error(fk_image_copy_pixels(image, FK_PIXEL_BGR8, pixels.data(), pixels.size(), width * 3, &error), error);
    fk_image_free(image);
}

/// A file holding the input, for the path entry points: memory-backed, so no disk is written.
int input_file() {
    static int fd = memfd_create("fuzz-image", MFD_CLOEXEC);
    return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fk_image *image = nullptr;
    fk_error error{};
    int32_t status = fk_image_create_from_encoded(data, size, max_pixels, &image, &error);
    fuzz::check_error(status, error);
    if (status == FK_OK) use(image);

    int fd = input_file();
    if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != ssize_t(size)) std::abort();
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    image = nullptr;
    int32_t reduction = 0;
    error = fk_error{};
    status = fk_image_create_from_file_reduced(path, max_pixels, 64, &image, &reduction, &error);
    fuzz::check_error(status, error);
    if (status == FK_OK) {
        if (reduction != 1 && reduction != 2 && reduction != 4 && reduction != 8) std::abort();
        use(image);
    }
    return 0;
}

// libFuzzer harness for the image header reader: the size FaceKit reads from an image's header to
// apply the pixel limit (--max-pixels) before it decodes, and the size that then decodes, must
// agree (scripts/fuzz builds and runs it; docs/architecture.md, "Fuzzing the C boundary").
//
// A reader of its own once took a JPEG's TEM marker (FF01, which has no length) for a segment
// with one and saw a fake 1x4 frame in front of a 16000x16000 one, which then decoded in full
// under any limit; another read an OS/2 bitmap's 16-bit sides as 32-bit ones and refused a
// 512x512 picture as 33554944x1572865. Each input here goes through fk::declared_image_size (what
// the limit sees) and fk_image_create_from_encoded (what decodes), and:
// - an image that decodes has the declared size (its sides swapped where an orientation turned
//   it a quarter), and never more pixels than the limit;
// - a header that cannot be read (declared_image_size throws) does not decode either.
#include "CFaceKit.h"
#include "fuzz_checks.hpp"
#include "guard.hpp"
#include "image.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// As the image harness: bounds what a header may claim, so that one input cannot take
/// gigabytes (the size check is the same code whatever the bound).
constexpr int64_t max_pixels = 4'000'000;

[[noreturn]] void fail(const char *what, long long a, long long b, long long c, long long d) {
    std::fprintf(stderr, "%s: %lld %lld %lld %lld\n", what, a, b, c, d);
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::vector<uint8_t> bytes(data, data + size);
    bool readable = true;
    std::optional<std::pair<int64_t, int64_t>> declared;
    try {
        declared = fk::declared_image_size(bytes);
    } catch (const fk::failure &) {
        readable = false;
    } catch (const std::bad_alloc &) {
        return 0;   // as the shim's guard turns it into a status
    }

    fk_image *image = nullptr;
    fk_error error{};
    const int32_t status = fk_image_create_from_encoded(data, size, max_pixels, &image, &error);
    if (status != FK_OK) {
        fuzz::check_error(status, error);
        return 0;
    }
    int32_t width = 0, height = 0;
    if (fk_image_get_size(image, &width, &height, &error) != FK_OK) fail("no size", 0, 0, 0, 0);
    fk_image_free(image);
    if (!readable) fail("decoded although its header could not be read", width, height, 0, 0);
    if (int64_t(width) * height > max_pixels) fail("decoded over the pixel limit", width, height, max_pixels, 0);
    if (declared) {
        const auto [w, h] = *declared;
        const bool same = (w == width && h == height) || (w == height && h == width);
        if (!same) fail("declared w x h, decoded w x h", w, h, width, height);
    }
    return 0;
}

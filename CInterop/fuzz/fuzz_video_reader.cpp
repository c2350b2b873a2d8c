// libFuzzer harness for the video reader at the C boundary: any bytes, as a video FaceKit is
// asked to track or annotate, must open and read as frames or fail with a status and a message,
// never crash, hang or abort (scripts/fuzz builds and runs it; docs/architecture.md, "Fuzzing the
// C boundary"). It uses only the reader's public C API, read-only.
//
// The input is written to a memory-backed file (FFmpeg reads paths), opened with fk_video_open,
// and its first frames are decoded with fk_video_next, as VideoReader does.
#include "CFaceKit.h"
#include "fuzz_checks.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace {

/// Enough frames to pass the container's first packets and a keyframe or two, few enough that
/// one input stays fast.
constexpr int frames_read = 12;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int fd = memfd_create("fuzz-video", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != ssize_t(size)) std::abort();
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    fk_video *video = nullptr;
    fk_error error{};
    int32_t status = fk_video_open(path, 100000000, &video, &error);
    fuzz::check_error(status, error);
    if (status != FK_OK) return 0;
    fk_video_info info{};
    fuzz::check_error(fk_video_get_info(video, &info, &error), error);
    for (int i = 0; i < frames_read; ++i) {
        fk_image *frame = nullptr;
        int64_t index = -1;
        double timestamp = 0;
        int32_t ended = 0;
        status = fk_video_next(video, 1, &frame, &index, &timestamp, &ended, &error);
        fuzz::check_error(status, error);
        if (status != FK_OK || ended) break;
        int32_t width = 0, height = 0;
        fuzz::check_error(fk_image_get_size(frame, &width, &height, &error), error);
        fk_image_free(frame);
    }
    fk_video_free(video);
    return 0;
}

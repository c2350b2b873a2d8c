// Following points from one video frame to the next: pyramidal Lucas-Kanade optical flow,
// checked forward and backward, on FaceKit's flow (lucas_kanade.cpp) or OpenCV's, the reference.
#include "point_tracker.hpp"

#include "kernel_path.hpp"
#include "lucas_kanade.hpp"
#include "native_logging.hpp"

#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_point_tracker_create(int32_t window, int32_t levels, fk_point_tracker **out,
                                           fk_error *error) {
    return fk_point_tracker_create_on_path(window, levels, FK_PATH_FROM_ENVIRONMENT, out, error);
}

extern "C" int32_t fk_point_tracker_create_on_path(int32_t window, int32_t levels, int32_t path,
                                                   fk_point_tracker **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(out != nullptr, "out must not be NULL");
        const bool reference = fk::use_reference(FK_KERNEL_FLOW, path);
        fk::require(window >= 5 && window <= 63 && window % 2 == 1, "window must be odd, 5 ... 63");
        fk::require(levels >= 0 && levels <= 6, "levels must be 0 ... 6");
        fk::silence_native_logging();
        auto tracker = std::make_unique<fk_point_tracker>();
        tracker->reference = reference;
        tracker->window = cv::Size(window, window);
        tracker->levels = levels;
        *out = tracker.release();
    });
}

extern "C" void fk_point_tracker_free(fk_point_tracker *tracker) { const fk::native_call call; delete tracker; }

extern "C" int32_t fk_point_tracker_push_frame(fk_point_tracker *tracker, const fk_image *frame,
                                               int32_t reduction, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(tracker != nullptr && frame != nullptr, "NULL argument");
        fk::require(reduction >= 1 && reduction <= 64, "reduction must be 1 ... 64");
        tracker->push(*frame, reduction);
    });
}

extern "C" int32_t fk_point_tracker_follow(fk_point_tracker *tracker, const fk_point *points, int32_t count,
                                           fk_point *out, float *fb_error, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(tracker != nullptr, "NULL tracker");
        if (tracker->reference)
            fk::follow_points(tracker, points, count, out, fb_error, fk::follow_opencv);
        else
            fk::follow_points(tracker, points, count, out, fb_error, fk::follow_lucas_kanade);
    });
}

#pragma GCC visibility pop

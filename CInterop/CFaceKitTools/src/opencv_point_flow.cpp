// Following points with OpenCV's own Lucas-Kanade flow: the reference that FaceKit's
// (lucas_kanade.cpp, in fk_point_tracker_follow) must match bit for bit.
#include "CFaceKitTools.h"
#include "point_tracker.hpp"

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_opencv_point_tracker_follow(fk_point_tracker *tracker, const fk_point *points, int32_t count,
                                                  fk_point *out, float *fb_error, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::follow_points(tracker, points, count, out, fb_error, fk::follow_opencv);
    });
}

#pragma GCC visibility pop

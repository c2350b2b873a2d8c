// Drawing primitives on a private copy of an image: polylines, circles, filled rectangles and
// outlined text. What to draw is the caller's policy; this file only puts pixels down.
#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_canvas {
    cv::Mat bgr;  // CV_8UC3, a copy owned by the canvas
};

namespace {

/// Coordinates go to OpenCV as fixed point with this many fractional bits (1/16 pixel).
constexpr int kShift = 4;
constexpr double kOne = 1 << kShift;
/// Hershey Simplex capital letters are 21 units tall at font scale 1.
constexpr double kCapitalUnits = 21.0;
constexpr int kFont = cv::FONT_HERSHEY_SIMPLEX;

cv::Scalar bgr(fk_color c) { return cv::Scalar(c.blue, c.green, c.red); }

/// Whole-pixel thicknesses of the line and of the line with its outline.
struct Thickness {
    int line;
    int outlined;
    bool has_outline;
};

Thickness thickness(const fk_stroke &stroke) {
    fk::require(std::isfinite(stroke.width) && stroke.width >= 0 && stroke.width <= 10000,
                "stroke width must be finite, not negative and at most 10000");
    fk::require(std::isfinite(stroke.outline_width) && stroke.outline_width >= 0 &&
                    stroke.outline_width <= 10000,
                "outline width must be finite, not negative and at most 10000");
    int line = std::max(1, int(std::lround(stroke.width)));
    int outlined = std::max(line, int(std::lround(stroke.width + 2 * stroke.outline_width)));
    return {line, outlined, stroke.outline_width > 0 && outlined > line};
}

/// A point in OpenCV's fixed point; coordinates far outside any image are clamped so that the
/// conversion cannot overflow (OpenCV clips the segment to the image anyway).
cv::Point fixed(fk_point p) {
    fk::require(std::isfinite(p.x) && std::isfinite(p.y), "points must be finite");
    auto clamp = [](float v) { return int(std::lround(std::max(-1e6f, std::min(1e6f, v)) * kOne)); };
    return {clamp(p.x), clamp(p.y)};
}

double font_scale(float height) {
    fk::require(std::isfinite(height) && height >= 1 && height <= 10000,
                "text height must be finite and in 1 ... 10000");
    return height / kCapitalUnits;
}

/// Bytes outside printable ASCII become '?', which the Hershey fonts would draw anyway.
std::string printable(const char *text) {
    std::string out(text);
    for (auto &c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
    return out;
}

}  // namespace

extern "C" int32_t fk_canvas_create(const fk_image *image, fk_canvas **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(image != nullptr && out != nullptr, "image and out must not be NULL");
        auto canvas = std::make_unique<fk_canvas>();
        image->bgr.copyTo(canvas->bgr);
        *out = canvas.release();
    });
}

extern "C" void fk_canvas_free(fk_canvas *canvas) { const fk::native_call call; delete canvas; }

extern "C" int32_t fk_canvas_get_size(const fk_canvas *canvas, int32_t *width, int32_t *height,
                                      fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr && width != nullptr && height != nullptr, "NULL argument");
        *width = canvas->bgr.cols;
        *height = canvas->bgr.rows;
    });
}

extern "C" int32_t fk_canvas_draw_polyline(fk_canvas *canvas, const fk_point *points, int32_t count,
                                           int32_t closed, fk_stroke stroke, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr && points != nullptr, "canvas and points must not be NULL");
        fk::require(count >= 2, "a polyline needs at least 2 points");
        auto t = thickness(stroke);
        std::vector<cv::Point> line;
        line.reserve(size_t(count));
        for (int32_t i = 0; i < count; ++i) line.push_back(fixed(points[i]));
        std::vector<std::vector<cv::Point>> lines{line};
        if (t.has_outline)
            cv::polylines(canvas->bgr, lines, closed != 0, bgr(stroke.outline_color), t.outlined,
                          cv::LINE_AA, kShift);
        cv::polylines(canvas->bgr, lines, closed != 0, bgr(stroke.color), t.line, cv::LINE_AA, kShift);
    });
}

extern "C" int32_t fk_canvas_draw_circle(fk_canvas *canvas, fk_point center, float radius, int32_t filled,
                                         fk_stroke stroke, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr, "canvas must not be NULL");
        fk::require(std::isfinite(radius) && radius > 0 && radius <= 1e5f, "radius must be in (0, 100000]");
        auto t = thickness(stroke);
        auto c = fixed(center);
        auto r = [](double pixels) { return std::max(1, int(std::lround(pixels * kOne))); };
        if (filled != 0) {
            if (stroke.outline_width > 0)
                cv::circle(canvas->bgr, c, r(radius + stroke.outline_width), bgr(stroke.outline_color),
                           cv::FILLED, cv::LINE_AA, kShift);
            cv::circle(canvas->bgr, c, r(radius), bgr(stroke.color), cv::FILLED, cv::LINE_AA, kShift);
            return;
        }
        if (t.has_outline)
            cv::circle(canvas->bgr, c, r(radius), bgr(stroke.outline_color), t.outlined, cv::LINE_AA, kShift);
        cv::circle(canvas->bgr, c, r(radius), bgr(stroke.color), t.line, cv::LINE_AA, kShift);
    });
}

extern "C" int32_t fk_canvas_fill_rect(fk_canvas *canvas, fk_rect rect, fk_color color, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr, "canvas must not be NULL");
        fk::require(std::isfinite(rect.x) && std::isfinite(rect.y) && std::isfinite(rect.width) &&
                        std::isfinite(rect.height) && rect.width >= 0 && rect.height >= 0,
                    "rect must be finite with a width and height not negative");
        // Pixels whose centre lies inside the rectangle; clipped to the image.
        auto first = [](float v) { return std::lround(std::max(-1e6f, std::min(1e6f, v))); };
        long x0 = first(rect.x), y0 = first(rect.y);
        long x1 = first(rect.x + rect.width), y1 = first(rect.y + rect.height);
        cv::Rect area(cv::Point(int(std::max(0L, x0)), int(std::max(0L, y0))),
                      cv::Point(int(std::min<long>(canvas->bgr.cols, x1)), int(std::min<long>(canvas->bgr.rows, y1))));
        if (area.width > 0 && area.height > 0) canvas->bgr(area).setTo(bgr(color));
    });
}

extern "C" int32_t fk_canvas_draw_text(fk_canvas *canvas, const char *text, fk_point origin, float height,
                                       fk_stroke stroke, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr && text != nullptr, "canvas and text must not be NULL");
        auto t = thickness(stroke);
        double scale = font_scale(height);
        fk::require(std::isfinite(origin.x) && std::isfinite(origin.y), "origin must be finite");
        cv::Point at(int(std::lround(std::max(-1e6f, std::min(1e6f, origin.x)))),
                     int(std::lround(std::max(-1e6f, std::min(1e6f, origin.y)))));
        auto line = printable(text);
        if (t.has_outline)
            cv::putText(canvas->bgr, line, at, kFont, scale, bgr(stroke.outline_color), t.outlined, cv::LINE_AA);
        cv::putText(canvas->bgr, line, at, kFont, scale, bgr(stroke.color), t.line, cv::LINE_AA);
    });
}

extern "C" int32_t fk_text_measure(const char *text, float height, fk_stroke stroke, fk_text_extent *out,
                                   fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(text != nullptr && out != nullptr, "text and out must not be NULL");
        auto t = thickness(stroke);
        int baseline = 0;
        cv::Size size = cv::getTextSize(printable(text), kFont, font_scale(height), t.outlined, &baseline);
        *out = fk_text_extent{float(size.width), float(size.height), float(baseline)};
    });
}

extern "C" int32_t fk_canvas_copy_image(const fk_canvas *canvas, fk_image **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(canvas != nullptr && out != nullptr, "canvas and out must not be NULL");
        auto image = std::make_unique<fk_image>();
        canvas->bgr.copyTo(image->bgr);
        *out = image.release();
    });
}

#pragma GCC visibility pop

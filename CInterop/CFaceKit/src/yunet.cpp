// YuNet face detection: one network pass (small_cnn) over a resized region, decoded into boxes,
// five keypoints and scores, thinned by non-maximum suppression.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "small_cnn.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace {

constexpr int kStrides[3] = {8, 16, 32};
/// The network's sides must be multiples of its coarsest stride.
constexpr int kAlignment = 32;
/// Bounds one pass's memory: activations of a 2048 x 2048 input take about 1 GB.
constexpr double kMaxInputPixels = 2048.0 * 2048.0;
constexpr int kMaxInputSide = 4096;

const std::vector<std::string> &output_names() {
    static const std::vector<std::string> names = {
        "cls_8", "cls_16", "cls_32", "obj_8", "obj_16", "obj_32",
        "bbox_8", "bbox_16", "bbox_32", "kps_8", "kps_16", "kps_32"};
    return names;
}

float clamp01(float v) { return std::min(1.0f, std::max(0.0f, v)); }

int aligned(int side) { return (side + kAlignment - 1) / kAlignment * kAlignment; }

/// Resizes source into target (a view of its final size). Shrinking by more than half goes
/// through exact halvings first, where INTER_AREA has a fast path (it averages 2x2 blocks), then
/// a bilinear step of less than 2x: the same anti-aliasing as one INTER_AREA resize at a
/// fraction of its cost, which at a scale like 0.47 is a third of a whole detection pass.
void resize_into(const cv::Mat &source, cv::Mat &target) {
    if (source.size() == target.size()) {
        source.copyTo(target);
        return;
    }
    cv::Mat current = source;
    while (current.cols >= 2 * target.cols && current.rows >= 2 * target.rows) {
        cv::Mat half;
        cv::resize(current, half, cv::Size(current.cols / 2, current.rows / 2), 0, 0, cv::INTER_AREA);
        current = half;
    }
    cv::resize(current, target, target.size(), 0, 0, cv::INTER_LINEAR);
}

}  // namespace

struct fk_yunet {
    fk::cnn::Network net;
    cv::Mat input;  // reused between passes: a frame-sized buffer allocated anew is paged in anew
};

extern "C" int32_t fk_yunet_create(const char *model_path, fk_yunet **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        const std::vector<char> bytes = fk::read_model_file(model_path, fk::max_network_bytes);
        fk::onnx::Model model;
        try {
            model = fk::onnx::parse(bytes.data(), bytes.size());
        } catch (const fk::onnx::malformed &e) {
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) +
                                                        " is not a readable ONNX network (truncated or another format): " +
                                                        e.what());
        }
        for (const auto &wanted : output_names()) {
            if (std::find(model.outputs.begin(), model.outputs.end(), wanted) == model.outputs.end())
                throw fk::failure(FK_MODEL_UNAVAILABLE,
                                  std::string(model_path) + " is not a YuNet face detector (no output " + wanted + ")");
        }
        try {
            *out = new fk_yunet{fk::cnn::Network(model), cv::Mat()};
        } catch (const fk::cnn::unsupported &e) {
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " uses what FaceKit's network runner does not have: " + e.what());
        }
    });
}

extern "C" void fk_yunet_free(fk_yunet *yunet) { delete yunet; }

extern "C" int32_t fk_yunet_detect(fk_yunet *yunet, const fk_image *image, fk_rect region, float scale,
                                   int32_t mirrored, float min_score, float nms_overlap, fk_yunet_face *out,
                                   int32_t capacity, int32_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(yunet != nullptr && image != nullptr && count != nullptr, "NULL argument");
        fk::require(capacity >= 0 && (out != nullptr || capacity == 0), "bad output buffer");
        fk::require(std::isfinite(scale) && scale > 0 && scale <= 8, "scale must be in (0, 8]");
        fk::require(min_score >= 0 && min_score <= 1, "min_score must be in [0, 1]");
        fk::require(nms_overlap > 0 && nms_overlap <= 1, "nms_overlap must be in (0, 1]");
        fk::require(std::isfinite(region.x) && std::isfinite(region.y) && std::isfinite(region.width) &&
                        std::isfinite(region.height),
                    "region must be finite");
        const cv::Mat &bgr = image->bgr;
        // Clip the region to whole pixels inside the image.
        const double left = std::max(0.0, std::floor(double(region.x)));
        const double top = std::max(0.0, std::floor(double(region.y)));
        const double right = std::min(double(bgr.cols), std::ceil(double(region.x) + double(region.width)));
        const double bottom = std::min(double(bgr.rows), std::ceil(double(region.y) + double(region.height)));
        fk::require(right - left >= 1 && bottom - top >= 1, "region must keep at least one pixel of the image");
        const cv::Rect crop(int(left), int(top), int(right - left), int(bottom - top));
        const int width = std::max(1, int(std::lround(crop.width * double(scale))));
        const int height = std::max(1, int(std::lround(crop.height * double(scale))));
        fk::require(width <= kMaxInputSide && height <= kMaxInputSide &&
                        double(aligned(width)) * aligned(height) <= kMaxInputPixels,
                    "the resized region is too large for one pass (at most 2048 x 2048 pixels): tile it");

        // The network's input: the resized region at the top left of a black canvas whose sides
        // are multiples of 32.
        cv::Mat &input = yunet->input;
        input.create(aligned(height), aligned(width), CV_8UC3);
        input.setTo(cv::Scalar::all(0));
        cv::Mat placed = input(cv::Rect(0, 0, width, height));
        resize_into(bgr(crop), placed);
        if (mirrored) cv::flip(placed, placed, 1);

        // The network's input: the canvas's blue, green and red planes.
        fk::cnn::Tensor &planes = yunet->net.input(3, input.rows, input.cols);
        const size_t plane = size_t(input.rows) * input.cols;
        for (int y = 0; y < input.rows; ++y) {
            const uint8_t *pixel = input.ptr<uint8_t>(y);
            float *blue = planes.data.data() + size_t(y) * input.cols;
            for (int x = 0; x < input.cols; ++x, pixel += 3) {
                blue[x] = pixel[0];
                blue[plane + x] = pixel[1];
                blue[2 * plane + x] = pixel[2];
            }
        }
        yunet->net.run();

        // Input pixels to image pixels.
        const double sx = double(crop.width) / width, sy = double(crop.height) / height;
        auto to_image = [&](double x, double y) {
            if (mirrored) x = width - x;
            return fk_point{float(crop.x + x * sx), float(crop.y + y * sy)};
        };
        std::vector<fk_yunet_face> candidates;
        std::vector<cv::Rect2d> boxes;
        std::vector<float> scores;
        for (int level = 0; level < 3; ++level) {
            const int stride = kStrides[level];
            const int columns = input.cols / stride;
            const int cells = columns * (input.rows / stride);
            auto output = [&](int index, int per_cell) {
                const fk::cnn::Tensor &t = yunet->net.tensor(output_names()[index]);
                fk::require(t.total() == size_t(cells) * per_cell, "the network's outputs do not match its input grid");
                return t.data.data();
            };
            const float *cls = output(level, 1);
            const float *obj = output(3 + level, 1);
            const float *bbox = output(6 + level, 4);
            const float *kps = output(9 + level, 10);
            for (int cell = 0; cell < cells; ++cell) {
                const float score = std::sqrt(clamp01(cls[cell]) * clamp01(obj[cell]));
                if (score < min_score) continue;
                const int row = cell / columns, column = cell % columns;
                const float *b = bbox + 4 * cell;
                const double cx = (column + b[0]) * stride, cy = (row + b[1]) * stride;
                const double w = std::exp(double(b[2])) * stride, h = std::exp(double(b[3])) * stride;
                if (!std::isfinite(w) || !std::isfinite(h)) continue;
                fk_yunet_face face;
                // The box's left edge in the image is its right edge in a mirrored input.
                const fk_point corner = to_image(mirrored ? cx + w / 2 : cx - w / 2, cy - h / 2);
                face.box = {corner.x, corner.y, float(w * sx), float(h * sy)};
                for (int k = 0; k < FK_YUNET_KEYPOINT_COUNT; ++k)
                    face.keypoints[k] = to_image((column + kps[10 * cell + 2 * k]) * stride,
                                                 (row + kps[10 * cell + 2 * k + 1]) * stride);
                if (mirrored) {
                    std::swap(face.keypoints[FK_YUNET_RIGHT_EYE], face.keypoints[FK_YUNET_LEFT_EYE]);
                    std::swap(face.keypoints[FK_YUNET_RIGHT_MOUTH_CORNER], face.keypoints[FK_YUNET_LEFT_MOUTH_CORNER]);
                }
                face.score = score;
                candidates.push_back(face);
                boxes.emplace_back(face.box.x, face.box.y, face.box.width, face.box.height);
                scores.push_back(score);
            }
        }
        std::vector<int> kept;  // best score first
        cv::dnn::NMSBoxes(boxes, scores, min_score, nms_overlap, kept);
        std::stable_sort(kept.begin(), kept.end(), [&](int a, int b) { return scores[a] > scores[b]; });
        const int32_t written = std::min<int32_t>(capacity, int32_t(kept.size()));
        for (int32_t i = 0; i < written; ++i) out[i] = candidates[kept[i]];
        *count = int32_t(kept.size());
    });
}

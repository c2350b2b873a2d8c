// YuNet face detection: one network pass over a resized region, decoded into boxes, five
// keypoints and scores, thinned by non-maximum suppression. The pass runs on FaceKit's own
// runner (small_cnn.cpp) or on OpenCV's DNN module, the reference (kernel_path.hpp).
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "kernel_path.hpp"
#include "native_logging.hpp"
#include "small_cnn.hpp"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
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

namespace {

/// YuNet's network, one pass at a time: the one interface of its two implementations.
class YuNetNetwork {
public:
    virtual ~YuNetNetwork() = default;
    /// The input, [1, 3, height, width] floats (blue, green, red planes), for the caller to fill.
    virtual float *input(int height, int width) = 0;
    /// Runs the network on the input last shaped by input().
    virtual void run() = 0;
    /// Output `index` of output_names() as the last run() left it: its floats and their count.
    virtual std::pair<const float *, size_t> output(int index) const = 0;
};

/// FaceKit's runner (small_cnn.cpp, the file read by onnx_model.cpp).
class RunnerNetwork final : public YuNetNetwork {
public:
    explicit RunnerNetwork(const fk::onnx::Model &model) : net_(model) {}
    float *input(int height, int width) override { return net_.input(3, height, width).data.data(); }
    void run() override { net_.run(); }
    std::pair<const float *, size_t> output(int index) const override {
        const fk::cnn::Tensor &t = net_.tensor(output_names()[size_t(index)]);
        return {t.data.data(), t.total()};
    }

private:
    fk::cnn::Network net_;
};

/// OpenCV's DNN module (cv::dnn::readNetFromONNX, Net::forward): the portable reference. OpenCV
/// plans every layer again whenever the input size changes, which costs about a pass, so each of
/// the last few input sizes keeps a network of its own (video and a search's levels alternate
/// between a few).
class OpenCvNetwork final : public YuNetNetwork {
public:
    explicit OpenCvNetwork(std::vector<char> bytes) : bytes_(std::move(bytes)) { nets_.emplace_back(cv::Size(), make()); }

    float *input(int height, int width) override {
        size_ = cv::Size(width, height);
        blob_.create(std::vector<int>{1, 3, height, width}, CV_32F);
        return blob_.ptr<float>();
    }

    void run() override {
        cv::dnn::Net &net = net_for(size_);
        net.setInput(blob_);
        net.forward(outputs_, output_names());
        for (cv::Mat &m : outputs_) {
            fk::require(m.type() == CV_32F, "OpenCV's network gave an output that is not float");
            if (!m.isContinuous()) m = m.clone();
        }
    }

    std::pair<const float *, size_t> output(int index) const override {
        const cv::Mat &m = outputs_.at(size_t(index));
        return {m.ptr<float>(), m.total()};
    }

private:
    static constexpr size_t kMaxNets = 4;
    std::vector<char> bytes_;
    std::vector<std::pair<cv::Size, cv::dnn::Net>> nets_;  // most recently used last
    cv::Size size_;
    cv::Mat blob_;
    std::vector<cv::Mat> outputs_;

    cv::dnn::Net make() const {
        cv::dnn::Net net = cv::dnn::readNetFromONNX(bytes_.data(), bytes_.size());
        if (net.empty()) throw fk::failure(FK_MODEL_UNAVAILABLE, "OpenCV's DNN module read no network");
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        return net;
    }

    cv::dnn::Net &net_for(cv::Size size) {
        auto found = std::find_if(nets_.begin(), nets_.end(), [&](const auto &entry) { return entry.first == size; });
        if (found == nets_.end())  // the network made at load, not yet planned for any size
            found = std::find_if(nets_.begin(), nets_.end(), [](const auto &entry) { return entry.first.empty(); });
        if (found != nets_.end()) {
            found->first = size;
            std::rotate(found, found + 1, nets_.end());
        } else {
            if (nets_.size() == kMaxNets) nets_.erase(nets_.begin());
            nets_.emplace_back(size, make());
        }
        return nets_.back().second;
    }
};

}  // namespace

struct fk_yunet {
    std::unique_ptr<YuNetNetwork> net;
    cv::Mat input;    // reused between passes: a frame-sized buffer allocated anew is paged in anew
    cv::Mat staging;  // the resized region before a turn, reused likewise
};

extern "C" int32_t fk_yunet_create(const char *model_path, fk_yunet **out, fk_error *error) {
    return fk_yunet_create_on_path(model_path, FK_PATH_FROM_ENVIRONMENT, out, error);
}

extern "C" int32_t fk_yunet_create_on_path(const char *model_path, int32_t path, fk_yunet **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        const bool reference = fk::use_reference(FK_KERNEL_YUNET, path);
        std::vector<char> bytes = fk::read_model_file(model_path, fk::max_network_bytes);
        // The file is read by FaceKit's reader on both paths: it tells a file that is not
        // YuNet from one that is, with the same messages.
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
        auto yunet = std::make_unique<fk_yunet>();
        if (reference) {
            fk::silence_native_logging();
            try {
                yunet->net = std::make_unique<OpenCvNetwork>(std::move(bytes));
            } catch (const cv::Exception &e) {
                throw fk::failure(FK_MODEL_UNAVAILABLE,
                                  std::string(model_path) + " is not a network OpenCV's DNN module reads: " + e.what());
            }
        } else {
            try {
                yunet->net = std::make_unique<RunnerNetwork>(model);
            } catch (const fk::cnn::unsupported &e) {
                throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) +
                                                            " uses what FaceKit's network runner does not have: " +
                                                            e.what());
            }
        }
        *out = yunet.release();
    });
}

extern "C" void fk_yunet_free(fk_yunet *yunet) { const fk::native_call call; delete yunet; }

extern "C" int32_t fk_yunet_detect(fk_yunet *yunet, const fk_image *image, fk_rect region, float scale,
                                   int32_t mirrored, int32_t quarter_turns, float min_score, float nms_overlap,
                                   fk_yunet_face *out, int32_t capacity, int32_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(yunet != nullptr && image != nullptr && count != nullptr, "NULL argument");
        fk::require(capacity >= 0 && (out != nullptr || capacity == 0), "bad output buffer");
        fk::require(std::isfinite(scale) && scale > 0 && scale <= 8, "scale must be in (0, 8]");
        fk::require(quarter_turns >= 0 && quarter_turns <= 3, "quarter_turns must be in 0 ... 3");
        fk::require(min_score >= 0 && min_score <= 1, "min_score must be in [0, 1]");
        fk::require(nms_overlap > 0 && nms_overlap <= 1, "nms_overlap must be in (0, 1]");
        fk::require(std::isfinite(region.x) && std::isfinite(region.y) && std::isfinite(region.width) &&
                        std::isfinite(region.height) && std::abs(region.x) < 1e7 && std::abs(region.y) < 1e7 &&
                        region.width < 1e7 && region.height < 1e7,
                    "region must be finite");
        const cv::Mat &bgr = image->bgr;
        // The region in whole pixels, and the part of it inside the image.
        // (A region reaching less than a pixel beyond the image is clipped to it.)
        auto outer = [](double start, double length, int limit, bool upper) {
            const double edge = upper ? std::ceil(start + length) : std::floor(start);
            if (upper) return edge > limit && edge < limit + 1 + 1e-9 ? double(limit) : edge;
            return edge < 0 && edge > -1 - 1e-9 ? 0.0 : edge;
        };
        const double left = outer(region.x, region.width, bgr.cols, false);
        const double top = outer(region.y, region.height, bgr.rows, false);
        const double right = outer(region.x, region.width, bgr.cols, true);
        const double bottom = outer(region.y, region.height, bgr.rows, true);
        fk::require(right - left >= 1 && bottom - top >= 1, "region must keep at least one pixel of the image");
        const cv::Rect whole(int(left), int(top), int(right - left), int(bottom - top));
        const cv::Rect crop = whole & cv::Rect(0, 0, bgr.cols, bgr.rows);
        fk::require(crop.width >= 1 && crop.height >= 1, "region must keep at least one pixel of the image");
        const int width = std::max(1, int(std::lround(whole.width * double(scale))));
        const int height = std::max(1, int(std::lround(whole.height * double(scale))));
        fk::require(width <= kMaxInputSide && height <= kMaxInputSide &&
                        double(aligned(width)) * aligned(height) <= kMaxInputPixels,
                    "the resized region is too large for one pass (at most 2048 x 2048 pixels): tile it");
        const bool turned = quarter_turns % 2 == 1;
        const int input_width = turned ? height : width, input_height = turned ? width : height;

        // The network's input: the resized region at the top left of a black canvas whose sides
        // are multiples of 32; the region's part outside the image mid-grey.
        cv::Mat &input = yunet->input;
        input.create(aligned(input_height), aligned(input_width), CV_8UC3);
        input.setTo(cv::Scalar::all(0));
        cv::Mat &staging = yunet->staging;
        cv::Mat placed;
        if (quarter_turns == 0) {
            placed = input(cv::Rect(0, 0, width, height));
        } else {
            staging.create(height, width, CV_8UC3);
            placed = staging;
        }
        if (crop == whole) {
            resize_into(bgr(crop), placed);
        } else {
            placed.setTo(cv::Scalar::all(127));
            const double kx = double(width) / whole.width, ky = double(height) / whole.height;
            const int x0 = int(std::lround((crop.x - whole.x) * kx)), y0 = int(std::lround((crop.y - whole.y) * ky));
            const int x1 = std::min(width, int(std::lround((crop.x + crop.width - whole.x) * kx)));
            const int y1 = std::min(height, int(std::lround((crop.y + crop.height - whole.y) * ky)));
            if (x1 > x0 && y1 > y0) {
                cv::Mat inner = placed(cv::Rect(x0, y0, x1 - x0, y1 - y0));
                resize_into(bgr(crop), inner);
            }
        }
        if (mirrored) cv::flip(placed, placed, 1);
        if (quarter_turns != 0) {
            static const cv::RotateFlags kTurns[3] = {cv::ROTATE_90_CLOCKWISE, cv::ROTATE_180,
                                                      cv::ROTATE_90_COUNTERCLOCKWISE};
            cv::Mat target = input(cv::Rect(0, 0, input_width, input_height));
            cv::rotate(placed, target, kTurns[quarter_turns - 1]);
        }

        // The network's input: the canvas's blue, green and red planes.
        float *planes = yunet->net->input(input.rows, input.cols);
        const size_t plane = size_t(input.rows) * input.cols;
        for (int y = 0; y < input.rows; ++y) {
            const uint8_t *pixel = input.ptr<uint8_t>(y);
            float *blue = planes + size_t(y) * input.cols;
            for (int x = 0; x < input.cols; ++x, pixel += 3) {
                blue[x] = pixel[0];
                blue[plane + x] = pixel[1];
                blue[2 * plane + x] = pixel[2];
            }
        }
        yunet->net->run();

        // Input pixels to image pixels: undo the turn, then the mirror, then the resize.
        const double sx = double(whole.width) / width, sy = double(whole.height) / height;
        auto to_image = [&](double u, double v) {
            double x = u, y = v;
            switch (quarter_turns) {
            case 1: x = v, y = height - u; break;
            case 2: x = width - u, y = height - v; break;
            case 3: x = width - v, y = u; break;
            default: break;
            }
            if (mirrored) x = width - x;
            return fk_point{float(whole.x + x * sx), float(whole.y + y * sy)};
        };
        std::vector<fk_yunet_face> candidates;
        std::vector<cv::Rect2d> boxes;
        std::vector<float> scores;
        for (int level = 0; level < 3; ++level) {
            const int stride = kStrides[level];
            const int columns = input.cols / stride;
            const int cells = columns * (input.rows / stride);
            auto output = [&](int index, int per_cell) {
                const auto [data, total] = yunet->net->output(index);
                fk::require(total == size_t(cells) * per_cell, "the network's outputs do not match its input grid");
                return data;
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
                if (quarter_turns == 0) {
                    // The box's left edge in the image is its right edge in a mirrored input.
                    const fk_point corner = to_image(mirrored ? cx + w / 2 : cx - w / 2, cy - h / 2);
                    face.box = {corner.x, corner.y, float(w * sx), float(h * sy)};
                } else {
                    // Opposite corners of the network's box, wherever the turn and mirror take them.
                    const fk_point a = to_image(cx - w / 2, cy - h / 2), b = to_image(cx + w / 2, cy + h / 2);
                    face.box = {std::min(a.x, b.x), std::min(a.y, b.y), std::abs(b.x - a.x), std::abs(b.y - a.y)};
                }
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

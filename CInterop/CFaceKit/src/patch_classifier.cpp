// A small convolutional network that reads square grey patches (the eye-state model) through
// OpenCV's DNN module: each patch standardised, the batch run in one pass, one logit a patch.
#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "native_logging.hpp"
#include "onnx_graph_name.hpp"

#include <opencv2/dnn.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// A patch's spread is floored here (grey levels) so that a flat patch is not blown up into noise.
constexpr double kMinimumDeviation = 4.0;

}  // namespace

struct fk_patch_classifier {
    cv::dnn::Net net;
    int side = 0;
};

namespace {

/// `name` as a message may show it: printable ASCII, at most 64 characters, the rest as `?`.
std::string shown(const std::string &name) {
    std::string text;
    for (const char c : name.substr(0, 64)) text += (c >= 0x20 && c < 0x7F) ? c : '?';
    return name.size() > 64 ? text + "..." : text;
}

}  // namespace

extern "C" int32_t fk_patch_classifier_create(const char *model_path, const char *graph_name, int32_t side,
                                              fk_patch_classifier **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && graph_name != nullptr && out != nullptr,
                    "model_path, graph_name and out must not be NULL");
        fk::require(side >= 8 && side <= 256, "side must be 8 ... 256");
        fk::silence_native_logging();
        const std::vector<char> bytes = fk::read_model_file(model_path, fk::max_network_bytes);
        // Identified before use: the eye-state and smile networks take the same patch and give
        // the same logit, so only the name their training gave the graph tells one from the other.
        const std::optional<std::string> name = fk::onnx_graph_name(bytes.data(), bytes.size());
        if (!name)
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " is not a readable ONNX network (truncated or another format)");
        if (*name != graph_name)
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " is another network: its ONNX graph is named \"" +
                                  shown(*name) + "\", not \"" + graph_name +
                                  "\" (a retrained network must keep that name: docs/cli.md, \"Model files\")");
        auto classifier = std::make_unique<fk_patch_classifier>();
        try {
            classifier->net = cv::dnn::readNetFromONNX(bytes.data(), bytes.size());
        } catch (const cv::Exception &) {
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " is not a readable ONNX network (truncated or another format)");
        }
        if (classifier->net.empty()) throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) + " holds no network");
        classifier->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        classifier->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        classifier->side = side;
        // One trial pass: a network of another input size or with more than one output per patch
        // is refused here, not at the first face.
        cv::Mat blob(std::vector<int>{1, 1, side, side}, CV_32F, cv::Scalar(0));
        classifier->net.setInput(blob);
        cv::Mat result;
        try {
            result = classifier->net.forward();
        } catch (const cv::Exception &) {
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) + " does not take a 1 x " +
                                                        std::to_string(side) + " x " + std::to_string(side) +
                                                        " grey patch");
        }
        if (result.total() != 1)
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) + " gives " + std::to_string(result.total()) +
                                                        " outputs per patch, not one logit");
        *out = classifier.release();
    });
}

extern "C" void fk_patch_classifier_free(fk_patch_classifier *classifier) { const fk::native_call call; delete classifier; }

extern "C" int32_t fk_patch_classifier_run(fk_patch_classifier *classifier, const uint8_t *patches, int32_t count,
                                           float *logits, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(classifier != nullptr && logits != nullptr && patches != nullptr, "NULL argument");
        fk::require(count >= 1 && count <= 4096, "count must be 1 ... 4096");
        const int side = classifier->side, area = side * side;
        cv::Mat blob(std::vector<int>{count, 1, side, side}, CV_32F);
        float *input = blob.ptr<float>();
        for (int i = 0; i < count; ++i) {
            const uint8_t *patch = patches + size_t(i) * area;
            double sum = 0, squares = 0;
            for (int k = 0; k < area; ++k) {
                sum += patch[k];
                squares += double(patch[k]) * patch[k];
            }
            const double mean = sum / area;
            const double deviation = std::max(kMinimumDeviation, std::sqrt(std::max(0.0, squares / area - mean * mean)));
            for (int k = 0; k < area; ++k) input[size_t(i) * area + k] = float((patch[k] - mean) / deviation);
        }
        classifier->net.setInput(blob);
        const cv::Mat result = classifier->net.forward();
        fk::require(int(result.total()) == count, "the network gave another number of outputs than patches");
        const float *values = result.ptr<float>();
        for (int i = 0; i < count; ++i) logits[i] = values[i];
    });
}

#pragma GCC visibility pop

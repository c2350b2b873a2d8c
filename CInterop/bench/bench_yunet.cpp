// YuNet through small_cnn alone: the time of one pass at the tracker's input size (320 x 192, one
// thread) and a hash of every output of passes at four sizes, so that two builds can be shown to
// compute the same bits. Frames from a clip (default TestVideos/crossing.mp4). Run by
// scripts/benchmark-native yunet [clip].
#include "onnx_model.hpp"
#include "small_cnn.hpp"

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

void set_input(fk::cnn::Network &net, const cv::Mat &bgr) {
    auto &planes = net.input(3, bgr.rows, bgr.cols);
    const size_t plane = size_t(bgr.rows) * bgr.cols;
    for (int y = 0; y < bgr.rows; ++y)
        for (int x = 0; x < bgr.cols; ++x)
            for (int c = 0; c < 3; ++c) planes.data[c * plane + size_t(y) * bgr.cols + x] = bgr.at<cv::Vec3b>(y, x)[c];
}

}  // namespace

int main(int argc, char **argv) {
    cv::setNumThreads(1);
    std::ifstream file("Sources/FaceKit/BundledModels/yunet_n_320_320.onnx", std::ios::binary);
    const std::vector<char> bytes(std::istreambuf_iterator<char>(file), {});
    fk::cnn::Network net(fk::onnx::parse(bytes.data(), bytes.size()));
    cv::VideoCapture clip(argc > 1 ? argv[1] : "TestVideos/crossing.mp4");
    std::vector<cv::Mat> frames;
    for (cv::Mat frame; frames.size() < 40 && clip.read(frame);) frames.push_back(frame.clone());
    if (frames.empty()) {
        std::fprintf(stderr, "no frames\n");
        return 1;
    }
    // The hash: every output of a pass at each of four sizes (odd ones included), per frame.
    const int sizes[][2] = {{320, 192}, {256, 160}, {96, 64}, {640, 384}};
    const char *outputs[] = {"cls_8", "cls_16", "cls_32", "obj_8", "obj_16", "obj_32",
                             "bbox_8", "bbox_16", "bbox_32", "kps_8", "kps_16", "kps_32"};
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = 0; i < frames.size(); ++i) {
        cv::Mat input;
        cv::resize(frames[i], input, cv::Size(sizes[i % 4][0], sizes[i % 4][1]));
        set_input(net, input);
        net.run();
        for (const char *name : outputs) {
            const auto &values = net.tensor(name).data;
            const auto *p = reinterpret_cast<const unsigned char *>(values.data());
            for (size_t b = 0; b < values.size() * sizeof(float); ++b) hash = (hash ^ p[b]) * 1099511628211ull;
        }
    }
    // The time: the best of five rounds over the frames at 320 x 192.
    std::vector<cv::Mat> inputs;
    for (const auto &frame : frames) {
        cv::Mat input;
        cv::resize(frame, input, cv::Size(320, 192));
        inputs.push_back(input);
    }
    double best = 1e9;
    for (int round = 0; round < 5; ++round) {
        double total = 0;
        for (const auto &input : inputs) {
            set_input(net, input);
            const auto start = std::chrono::steady_clock::now();
            net.run();
            total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        best = std::min(best, total / double(inputs.size()));
    }
    std::printf("YuNet (n) at 320x192, one thread: %.3f ms a pass (best of 5 rounds of %zu frames); outputs' hash %016llx\n",
                best * 1e3, inputs.size(), static_cast<unsigned long long>(hash));
}

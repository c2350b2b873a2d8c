// dlib's MMOD CNN face detector (mmod_human_face_detector.dat): FaceKit's third look at a face
// both of YuNet's looks leave under the minimum score (fk_mmod_detector), and the tools' former
// accurate detector (CFaceKitTools' fk_detector).
#pragma once

#include "CFaceKit.h"

#include <opencv2/core.hpp>

#include <memory>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

class mmod_detector {
public:
    /// Reads the network at model_path (checked and read whole first, fk::read_model_file);
    /// fails with FK_MODEL_UNAVAILABLE naming the path when it is not this network.
    explicit mmod_detector(const char *model_path);
    ~mmod_detector();

    /// The faces in bgr (CV_8UC3) whose confidence is at least threshold (dlib's is 0), best
    /// first, in bgr's pixels: over dlib's whole image pyramid when levels is 0, else over its
    /// first `levels` levels (each 5/6 of the last: faces from the 80 px window to about 80 px
    /// times (6/5)^(levels-1)). Not const: dlib's network keeps its activations (one per thread).
    std::vector<fk_detection> detect(const cv::Mat &bgr, double threshold, int levels = 0);

private:
    struct network;
    std::unique_ptr<network> net;
};

}  // namespace fk

#pragma GCC visibility pop

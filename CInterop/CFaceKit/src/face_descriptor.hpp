// dlib's face descriptor network (dlib_face_recognition_resnet_model_v1.dat) and the step from
// 68 (or 5) points to its 128 values, for any convolution layer: the runtime's (descriptor_conv.hpp)
// and, for the tools that check it gives the same bits, dlib's own.
#pragma once

#include "CFaceKit.h"
#include "file_input.hpp"
#include "guard.hpp"
#include "image.hpp"

#include <dlib/dnn.h>
#include <dlib/image_processing/full_object_detection.h>
#include <dlib/image_transforms/interpolation.h>
#include <dlib/opencv/cv_image.h>

#include <algorithm>
#include <cmath>
#include <istream>
#include <streambuf>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// The network of dlib_face_recognition_resnet_model_v1.dat, as in dlib's
/// dnn_face_recognition_ex.cpp (batch normalisation replaced by affine layers for inference),
/// with `con` as its convolution layer.
template <template <long, long, long, int, int, typename> class con> struct descriptor_network {
    template <template <int, template <typename> class, int, typename> class block, int N,
              template <typename> class BN, typename SUBNET>
    using residual = dlib::add_prev1<block<N, BN, 1, dlib::tag1<SUBNET>>>;

    template <template <int, template <typename> class, int, typename> class block, int N,
              template <typename> class BN, typename SUBNET>
    using residual_down =
        dlib::add_prev2<dlib::avg_pool<2, 2, 2, 2, dlib::skip1<dlib::tag2<block<N, BN, 2, dlib::tag1<SUBNET>>>>>>;

    template <int N, template <typename> class BN, int stride, typename SUBNET>
    using block = BN<con<N, 3, 3, 1, 1, dlib::relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;

    template <int N, typename SUBNET> using ares = dlib::relu<residual<block, N, dlib::affine, SUBNET>>;
    template <int N, typename SUBNET> using ares_down = dlib::relu<residual_down<block, N, dlib::affine, SUBNET>>;

    template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
    template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
    template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
    template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
    template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;

    using type = dlib::loss_metric<dlib::fc_no_bias<128, dlib::avg_pool_everything<
        alevel0<alevel1<alevel2<alevel3<alevel4<
        dlib::max_pool<3, 3, 2, 2, dlib::relu<dlib::affine<con<32, 7, 7, 2, 2,
        dlib::input_rgb_image_sized<150>>>>>>>>>>>>>;
};

constexpr unsigned long descriptor_chip_size = 150;   // the network's input
constexpr double descriptor_chip_padding = 0.25;      // as dlib's example and face_recognition use

/// Reads the network at `model_path` into `net`, failing with FK_MODEL_UNAVAILABLE. The file is
/// checked and read whole first (fk::read_model_file): dlib's own reader waits on a named pipe
/// and reads a device without end.
template <typename network> void read_descriptor_network(const char *model_path, network &net) {
    fk::require(model_path != nullptr, "model_path must not be NULL");
    std::vector<char> bytes = fk::read_model_file(model_path, fk::max_dlib_model_bytes);
    fk::memory_buffer buffer(bytes);
    std::istream in(&buffer);
    try {
        deserialize(net, in);
    } catch (const dlib::serialization_error &e) {
        throw fk::failure(FK_MODEL_UNAVAILABLE,
                          std::string(model_path) + " is not dlib's face recognition ResNet: " + e.what());
    }
}

/// The 128 values of the face whose `count` (68 or 5) points are `points` in `image`, into `out`.
template <typename network>
void describe_face(network &net, const fk_image *image, const fk_point *points, int32_t count,
                   float out[FK_FACE_DESCRIPTOR_LENGTH]) {
    fk::require(image != nullptr && points != nullptr && out != nullptr, "NULL argument");
    // get_face_chip_details requires 5 or 68 parts (a DLIB_CASSERT otherwise).
    fk::require(count == 68 || count == 5, "count must be 68 or 5");
    fk::require(!image->bgr.empty(), "empty image");
    std::vector<dlib::point> parts;
    parts.reserve(size_t(count));
    float left = points[0].x, right = points[0].x, top = points[0].y, bottom = points[0].y;
    for (int32_t i = 0; i < count; ++i) {
        const fk_point p = points[i];
        fk::require(std::isfinite(p.x) && std::isfinite(p.y) && std::abs(p.x) < 1e7f && std::abs(p.y) < 1e7f,
                    "points must be finite");
        left = std::min(left, p.x), right = std::max(right, p.x);
        top = std::min(top, p.y), bottom = std::max(bottom, p.y);
        parts.emplace_back(long(std::lround(p.x)), long(std::lround(p.y)));
    }
    // A similarity transform onto all-coincident points is degenerate.
    fk::require(right - left >= 2 && bottom - top >= 2, "points must span at least 2 pixels");
    const dlib::rectangle rect(long(std::floor(left)), long(std::floor(top)), long(std::ceil(right)),
                               long(std::ceil(bottom)));
    const dlib::full_object_detection shape(rect, parts);
    dlib::matrix<dlib::rgb_pixel> chip;
    dlib::extract_image_chip(dlib::cv_image<dlib::bgr_pixel>(image->bgr),
                             dlib::get_face_chip_details(shape, descriptor_chip_size, descriptor_chip_padding), chip);
    const dlib::matrix<float, 0, 1> values = net(chip);
    if (values.size() != FK_FACE_DESCRIPTOR_LENGTH)
        throw fk::failure(FK_INTERNAL, "the network gave " + std::to_string(values.size()) + " values, not 128");
    for (long i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values(i))) throw fk::failure(FK_INTERNAL, "the network gave a non-finite value");
    }
    for (long i = 0; i < values.size(); ++i) out[i] = values(i);
}

}  // namespace fk

#pragma GCC visibility pop

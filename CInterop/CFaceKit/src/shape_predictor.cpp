// Landmark placement with dlib's shape_predictor (the 68-point iBUG 300-W model and others).
#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"

#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

struct fk_shape_predictor {
    dlib::shape_predictor model;  // const use is thread-safe
};

namespace {

/// An input stream over bytes already in memory. dlib reads a model's floats a byte at a time
/// through the stream buffer; from a file buffer each read is a virtual call into libstdc++'s
/// filebuf, which made loading the 68-point model (95 MB) take about 0.55 s. From memory the
/// same reads are pointer increments.
struct memory_buffer : std::streambuf {
    explicit memory_buffer(std::vector<char> &bytes) { setg(bytes.data(), bytes.data(), bytes.data() + bytes.size()); }
};

std::vector<char> read_whole_file(const char *path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot open ") + path);
    const std::streamsize size = file.tellg();
    std::vector<char> bytes(size > 0 ? size_t(size) : 0);
    file.seekg(0);
    if (size > 0 && !file.read(bytes.data(), size))
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot read ") + path);
    return bytes;
}

}  // namespace

extern "C" int32_t fk_shape_predictor_create(const char *model_path, fk_shape_predictor **out,
                                             fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        auto bytes = read_whole_file(model_path);
        memory_buffer buffer(bytes);
        std::istream in(&buffer);
        auto predictor = std::make_unique<fk_shape_predictor>();
        try {
            dlib::deserialize(predictor->model, in);
        } catch (const dlib::serialization_error &e) {
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " is not a shape predictor: " + e.what());
        }
        *out = predictor.release();
    });
}

extern "C" void fk_shape_predictor_free(fk_shape_predictor *predictor) { delete predictor; }

extern "C" int32_t fk_shape_predictor_point_count(const fk_shape_predictor *predictor, int32_t *count,
                                                  fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(predictor != nullptr && count != nullptr, "NULL argument");
        *count = int32_t(predictor->model.num_parts());
    });
}

extern "C" int32_t fk_shape_predictor_predict(const fk_shape_predictor *predictor, const fk_image *image,
                                              fk_rect box, fk_point *out, int32_t capacity,
                                              int32_t *count, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(predictor != nullptr && image != nullptr && out != nullptr && count != nullptr,
                    "NULL argument");
        const auto parts = int32_t(predictor->model.num_parts());
        fk::require(capacity >= parts, "capacity is less than the model's point count");
        fk::require(std::isfinite(box.x) && std::isfinite(box.y) && box.width >= 1 && box.height >= 1,
                    "box must be finite and at least 1x1");
        dlib::rectangle rect(long(std::lround(box.x)), long(std::lround(box.y)),
                             long(std::lround(box.x + box.width)) - 1,
                             long(std::lround(box.y + box.height)) - 1);
        auto shape = predictor->model(dlib::cv_image<dlib::bgr_pixel>(image->bgr), rect);
        for (int32_t i = 0; i < parts; ++i)
            out[i] = {float(shape.part(i).x()), float(shape.part(i).y())};
        *count = parts;
    });
}

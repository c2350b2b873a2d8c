// Landmark placement with dlib's shape_predictor (the 68-point iBUG 300-W model and others).
#include "CFaceKit.h"
#include "guard.hpp"
#include "image.hpp"

#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>

#include <cmath>
#include <fstream>
#include <string>

struct fk_shape_predictor {
    dlib::shape_predictor model;  // const use is thread-safe
};

extern "C" int32_t fk_shape_predictor_create(const char *model_path, fk_shape_predictor **out,
                                             fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        if (!std::ifstream(model_path))
            throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot open ") + model_path);
        auto predictor = new fk_shape_predictor{};
        try {
            dlib::deserialize(model_path) >> predictor->model;
        } catch (const dlib::serialization_error &e) {
            delete predictor;
            throw fk::failure(FK_MODEL_UNAVAILABLE,
                              std::string(model_path) + " is not a shape predictor: " + e.what());
        }
        *out = predictor;
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

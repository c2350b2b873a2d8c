// Face descriptor: dlib's ResNet (dlib_face_recognition_resnet_model_v1.dat) on an aligned chip,
// its convolutions through descriptor_conv.hpp (the same values as dlib's own layer, faster).
#include "CFaceKit.h"
#include "descriptor_conv.hpp"
#include "face_descriptor.hpp"
#include "guard.hpp"

#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_face_descriptor {
    fk::descriptor_network<fk::descriptor_con>::type net;  // operator() is not const: one handle per thread
};

extern "C" int32_t fk_face_descriptor_create(const char *model_path, fk_face_descriptor **out,
                                             fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        auto descriptor = std::make_unique<fk_face_descriptor>();
        fk::read_descriptor_network(model_path, descriptor->net);
        *out = descriptor.release();
    });
}

extern "C" int32_t fk_face_descriptor_copy(const fk_face_descriptor *source, fk_face_descriptor **out,
                                           fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(source != nullptr && out != nullptr, "source and out must not be NULL");
        *out = new fk_face_descriptor(*source);
    });
}

extern "C" void fk_face_descriptor_free(fk_face_descriptor *descriptor) { delete descriptor; }

extern "C" int32_t fk_face_descriptor_compute(fk_face_descriptor *descriptor, const fk_image *image,
                                              const fk_point *points, int32_t count,
                                              float out[FK_FACE_DESCRIPTOR_LENGTH], fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(descriptor != nullptr, "NULL argument");
        fk::describe_face(descriptor->net, image, points, count, out);
    });
}

#pragma GCC visibility pop

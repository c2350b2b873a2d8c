// The face descriptor through dlib's own convolution layer: the reference for the runtime's
// (fk_face_descriptor), which must give the same bits.
#include "CFaceKitTools.h"
#include "face_descriptor.hpp"
#include "guard.hpp"

#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_dlib_face_descriptor {
    fk::descriptor_network<dlib::con>::type net;
};

extern "C" int32_t fk_dlib_face_descriptor_create(const char *model_path, fk_dlib_face_descriptor **out,
                                                  fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        auto descriptor = std::make_unique<fk_dlib_face_descriptor>();
        fk::read_descriptor_network(model_path, descriptor->net);
        *out = descriptor.release();
    });
}

extern "C" void fk_dlib_face_descriptor_free(fk_dlib_face_descriptor *descriptor) { delete descriptor; }

extern "C" int32_t fk_dlib_face_descriptor_compute(fk_dlib_face_descriptor *descriptor, const fk_image *image,
                                                   const fk_point *points, int32_t count,
                                                   float out[FK_FACE_DESCRIPTOR_LENGTH], fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(descriptor != nullptr, "NULL argument");
        fk::describe_face(descriptor->net, image, points, count, out);
    });
}

#pragma GCC visibility pop

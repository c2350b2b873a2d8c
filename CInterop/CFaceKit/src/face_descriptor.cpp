// Face descriptor: dlib's ResNet (dlib_face_recognition_resnet_model_v1.dat) on an aligned chip,
// its convolutions through descriptor_conv.hpp (the same values as dlib's own layer, faster), or
// through dlib's own layer, the reference (kernel_path.hpp).
#include "CFaceKit.h"
#include "descriptor_conv.hpp"
#include "face_descriptor.hpp"
#include "guard.hpp"
#include "kernel_path.hpp"

#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

struct fk_face_descriptor {
    // operator() is not const: one handle per thread. One of the two networks is made: with
    // descriptor_conv.hpp's convolutions, or with dlib's own layer, the reference.
    std::unique_ptr<fk::descriptor_network<fk::descriptor_con>::type> fast;
    std::unique_ptr<fk::descriptor_network<dlib::con>::type> reference;
};

extern "C" int32_t fk_face_descriptor_create(const char *model_path, fk_face_descriptor **out,
                                             fk_error *error) {
    return fk_face_descriptor_create_on_path(model_path, FK_PATH_FROM_ENVIRONMENT, out, error);
}

extern "C" int32_t fk_face_descriptor_create_on_path(const char *model_path, int32_t path, fk_face_descriptor **out,
                                                     fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        auto descriptor = std::make_unique<fk_face_descriptor>();
        if (fk::use_reference(FK_KERNEL_DESCRIPTOR, path)) {
            descriptor->reference = std::make_unique<fk::descriptor_network<dlib::con>::type>();
            fk::read_descriptor_network(model_path, *descriptor->reference);
        } else {
            descriptor->fast = std::make_unique<fk::descriptor_network<fk::descriptor_con>::type>();
            fk::read_descriptor_network(model_path, *descriptor->fast);
        }
        *out = descriptor.release();
    });
}

extern "C" int32_t fk_face_descriptor_copy(const fk_face_descriptor *source, fk_face_descriptor **out,
                                           fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(source != nullptr && out != nullptr, "source and out must not be NULL");
        auto copy = std::make_unique<fk_face_descriptor>();
        if (source->fast) copy->fast = std::make_unique<fk::descriptor_network<fk::descriptor_con>::type>(*source->fast);
        if (source->reference)
            copy->reference = std::make_unique<fk::descriptor_network<dlib::con>::type>(*source->reference);
        *out = copy.release();
    });
}

extern "C" void fk_face_descriptor_free(fk_face_descriptor *descriptor) { const fk::native_call call; delete descriptor; }

extern "C" int32_t fk_face_descriptor_compute(fk_face_descriptor *descriptor, const fk_image *image,
                                              const fk_point *points, int32_t count,
                                              float out[FK_FACE_DESCRIPTOR_LENGTH], fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(descriptor != nullptr, "NULL argument");
        if (descriptor->reference)
            fk::describe_face(*descriptor->reference, image, points, count, out);
        else
            fk::describe_face(*descriptor->fast, image, points, count, out);
    });
}

#pragma GCC visibility pop

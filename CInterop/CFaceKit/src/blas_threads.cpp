// OpenBLAS's thread count, set at run time. Found with dlsym rather than linked, so that the shim
// still links and runs against the reference BLAS (or any other) selected by update-alternatives.
#include "CFaceKit.h"
#include "guard.hpp"

#include <dlfcn.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_blas_set_threads(int32_t threads, int32_t *in_use, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(in_use != nullptr, "in_use must not be NULL");
        fk::require(threads >= 1, "threads must be at least 1");
        using Setter = void (*)(int);
        using Getter = int (*)();
        auto set = reinterpret_cast<Setter>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
        auto get = reinterpret_cast<Getter>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
        if (set == nullptr || get == nullptr) {
            *in_use = 0;
            return;
        }
        set(threads);
        *in_use = get();
    });
}

#pragma GCC visibility pop

// What every libFuzzer harness of this folder demands of the C API, whatever the input.
#pragma once

#include "CFaceKit.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fuzz {

/// A status other than FK_OK comes with its error record: the same status and a NUL-terminated,
/// non-empty message. Anything else stops the run (libFuzzer keeps the input).
inline void check_error(int32_t status, const fk_error &error) {
    if (status == FK_OK) return;
    if (error.status != status || std::memchr(error.message, 0, sizeof error.message) == nullptr ||
        error.message[0] == 0) {
        std::fprintf(stderr, "status %d without its error record\n", status);
        std::abort();
    }
}

}  // namespace fuzz

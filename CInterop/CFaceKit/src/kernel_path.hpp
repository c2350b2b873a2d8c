// Which code runs a kernel FaceKit has its own native code for: FaceKit's fast path, or the
// library call it replaces, always built, the portable reference (CFaceKit.h, "Kernels and their
// references"; FACEKIT_NATIVE chooses for the process).
#pragma once

#include "CFaceKit.h"

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// The path `kernel` takes for `asked` (an fk_kernel_path): FK_PATH_FAST or FK_PATH_REFERENCE.
/// FK_PATH_FROM_ENVIRONMENT is resolved by FACEKIT_NATIVE, read once. Throws fk::failure:
/// FK_INVALID_ARGUMENT for an unknown path or kernel, FK_INVALID_SETTING for a FACEKIT_NATIVE it
/// does not take.
fk_kernel_path kernel_path(fk_kernel kernel, int32_t asked);

/// kernel_path(kernel, asked) == FK_PATH_REFERENCE.
inline bool use_reference(fk_kernel kernel, int32_t asked) { return kernel_path(kernel, asked) == FK_PATH_REFERENCE; }

}  // namespace fk

#pragma GCC visibility pop

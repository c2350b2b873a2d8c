// Ending the process while other threads are inside FaceKit (exit_gate.cpp): the caller's own
// thread, a detached task or FaceKit's workers may be half-way through a frame when the main thread
// calls exit() or top-level code runs off its end, and the libraries' destructors (OpenBLAS joining
// its threads, OpenCV's and dlib's statics) must not run under them.
#pragma once

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// One call through the C API, for its length (fk::guarded and the *_free functions hold one).
/// Once the process has begun to exit, a thread that enters parks for good instead (it is about
/// to end with the process), and the exit waits for the calls already inside to leave before the
/// libraries' destructors run.
class native_call {
public:
    native_call() noexcept;
    ~native_call();
    native_call(const native_call &) = delete;
    native_call &operator=(const native_call &) = delete;
};

}  // namespace fk

#pragma GCC visibility pop

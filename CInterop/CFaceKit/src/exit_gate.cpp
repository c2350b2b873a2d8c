// The exit gate (exit_gate.hpp). exit() first destroys the exiting thread's thread_local objects,
// then runs its handlers, last registered first: the libraries' static objects made since start-up
// (OpenCV's and dlib's, FaceKit's own), and last _dl_fini, the libraries' destructors (OpenBLAS
// joining its threads). FaceKit's handler closes the gate, so that no thread enters the libraries
// again, and waits for the calls inside to leave; to run before every one of those it is registered
// by the destruction of a thread_local object of the main thread, the first thing exit() does there.
// A call that does not leave in time (a read blocked on a pipe, a frame of a huge picture) ends the
// process where it stands, streams flushed, without the destructors it would have raced.
#include "exit_gate.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// How long exit waits for the calls inside FaceKit: a frame's work takes milliseconds.
constexpr auto kDrainLimit = std::chrono::seconds(2);

std::atomic<int> calls_inside{0};
std::atomic<bool> closed{false};
/// This thread's calls under way (a call inside a call counts once).
thread_local int depth = 0;
/// Whether this thread is the one running exit's handlers: it may still call in (a handler
/// registered before FaceKit's, or a destructor, releasing a handle).
thread_local bool exiting_here = false;

[[noreturn]] void park() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

void close_gate(int status, void *) {
    exiting_here = true;
    // Sequentially consistent with native_call's increment and load: a thread either is counted
    // here or sees the gate closed.
    closed.store(true);
    const int own = depth > 0 ? 1 : 0;
    const auto deadline = std::chrono::steady_clock::now() + kDrainLimit;
    while (calls_inside.load() > own) {
        if (std::chrono::steady_clock::now() >= deadline) {
            std::fflush(nullptr);
            _exit(status);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

/// Registers close_gate when the main thread's thread_local objects are destroyed: when exit()
/// starts (returning from main included), so that it is the last handler registered and the first
/// to run. After pthread_exit on the main thread (dispatchMain does that) it is registered then,
/// and runs at the eventual exit after the handlers registered since.
struct main_thread_exit {
    bool armed = false;
    ~main_thread_exit() {
        if (armed) on_exit(close_gate, nullptr);
    }
};
thread_local main_thread_exit main_thread_exit_hook;

/// At load, on the main thread (or on whichever thread loads FaceKit later, when it is not linked
/// in: then only the registration after the first call below holds).
__attribute__((constructor)) void arm_main_thread_exit() {
    if (gettid() == getpid()) main_thread_exit_hook.armed = true;
}

}  // namespace

fk::native_call::native_call() noexcept {
    if (depth++ > 0) return;
    calls_inside.fetch_add(1);
    if (closed.load() && !exiting_here) {
        calls_inside.fetch_sub(1);
        park();
    }
}

fk::native_call::~native_call() {
    if (--depth > 0) return;
    calls_inside.fetch_sub(1);
    // Once, after the first call's body, for an exit() from another thread than the main one.
    static const bool registered = on_exit(close_gate, nullptr) == 0;
    (void)registered;
}

#pragma GCC visibility pop

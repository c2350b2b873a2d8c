// The one place where C++ failures become fk_status values. Every extern "C" entry point runs
// its body through fk::guarded, so no exception ever crosses into Swift.
#pragma once

#include "CFaceKit.h"
#include "exit_gate.hpp"

#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// A failure with a chosen status, thrown inside the shim and reported by guarded().
struct failure : std::runtime_error {
    fk_status status;
    failure(fk_status status, const std::string &message)
        : std::runtime_error(message), status(status) {}
};

inline int32_t report(fk_error *error, fk_status status, const std::string &message) {
    if (error != nullptr) {
        error->status = status;
        std::snprintf(error->message, sizeof error->message, "%s", message.c_str());
    }
    return status;
}

/// Runs body() and converts whatever it throws into a status and a message in *error.
template <typename Body>
int32_t guarded(fk_error *error, Body &&body) noexcept {
    const native_call call;  // held until the body is done, so that exit() waits for it (exit_gate.hpp)
    try {
        body();
        return FK_OK;
    } catch (const failure &f) {
        return report(error, f.status, f.what());
    } catch (const std::bad_alloc &) {
        return report(error, FK_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception &e) {
        return report(error, FK_INTERNAL, e.what());
    } catch (...) {
        return report(error, FK_INTERNAL, "unknown C++ exception");
    }
}

inline void require(bool condition, const char *message) {
    if (!condition) throw failure(FK_INVALID_ARGUMENT, message);
}

}  // namespace fk

#pragma GCC visibility pop

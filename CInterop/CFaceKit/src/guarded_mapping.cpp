// Mappings that survive their file being cut short: see guarded_mapping.hpp.
//
// Reading the model cache's 65 MB into memory instead of mapping it would make truncation
// harmless too, but brings back the zeroing of fresh pages that mapping saved (docs/benchmarks.md,
// "Start-up"), and every process would hold its own copy. Catching the fault costs nothing until
// it happens.
//
// The handler only reads lock-free atomics and calls mmap (a system call), so it is safe in a
// signal handler. It finds the faulting address among the live mappings' ranges, marks that one
// lost and maps anonymous zero pages over its whole range (MAP_FIXED), so the faulting read and
// every later one read zeros instead of faulting again; the reader checks lost() once it is done.
#include "guarded_mapping.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>

#include <pthread.h>
#include <sys/mman.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// One live mapping's range, [begin, end); begin is 0 when the slot is free and 1 while it is
/// being claimed (no mapping starts at address 1).
struct slot {
    std::atomic<uintptr_t> begin{0};
    std::atomic<uintptr_t> end{0};
    std::atomic<bool> lost{false};
};

constexpr int slot_count = 64;
slot slots[slot_count];
static_assert(std::atomic<uintptr_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the signal handler reads them");

struct sigaction previous_action {};

/// A fault outside every guarded mapping: what would have happened without this handler.
void pass_on(int signal, siginfo_t *info, void *context) {
    if (previous_action.sa_flags & SA_SIGINFO) {
        if (previous_action.sa_sigaction != nullptr) previous_action.sa_sigaction(signal, info, context);
        return;
    }
    if (previous_action.sa_handler == SIG_DFL || previous_action.sa_handler == SIG_IGN) {
        // The faulting instruction runs again on return, and faults with the default action.
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        ::sigaction(signal, &fallback, nullptr);
        return;
    }
    previous_action.sa_handler(signal);
}

void on_bus_error(int signal, siginfo_t *info, void *context) {
    const int saved_errno = errno;
    const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (auto &range : slots) {
        const uintptr_t begin = range.begin.load(std::memory_order_acquire);
        const uintptr_t end = range.end.load(std::memory_order_acquire);
        if (begin <= 1 || address < begin || address >= end) continue;
        range.lost.store(true, std::memory_order_seq_cst);
        void *zeros = ::mmap(reinterpret_cast<void *>(begin), end - begin, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        errno = saved_errno;
        if (zeros != MAP_FAILED) return;
        break;
    }
    errno = saved_errno;
    pass_on(signal, info, context);
}

void install_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_bus_error;
        action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previous_action);
    });
}

}  // namespace

std::shared_ptr<fk::guarded_mapping> fk::guarded_mapping::map(int fd, size_t size) {
    if (size == 0) return nullptr;
    install_handler();
    int index = -1;
    for (int i = 0; i < slot_count && index < 0; ++i) {
        uintptr_t free = 0;
        if (slots[i].begin.compare_exchange_strong(free, 1)) index = i;
    }
    if (index < 0) return nullptr;
    void *address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) {
        slots[index].begin.store(0);
        return nullptr;
    }
    slots[index].lost.store(false);
    slots[index].end.store(reinterpret_cast<uintptr_t>(address) + size, std::memory_order_release);
    slots[index].begin.store(reinterpret_cast<uintptr_t>(address), std::memory_order_release);
    return std::shared_ptr<guarded_mapping>(new guarded_mapping(static_cast<const uint8_t *>(address), size, index));
}

fk::guarded_mapping::~guarded_mapping() {
    // Out of the handler's sight before the range can be mapped again by anyone.
    slots[slot_].begin.store(1, std::memory_order_release);
    slots[slot_].end.store(0, std::memory_order_release);
    ::munmap(const_cast<uint8_t *>(data_), size_);
    slots[slot_].begin.store(0, std::memory_order_release);
}

bool fk::guarded_mapping::lost() const { return slots[slot_].lost.load(std::memory_order_seq_cst); }

void fk::guarded_mapping::allow_faults_on_this_thread() {
    sigset_t bus;
    sigemptyset(&bus);
    sigaddset(&bus, SIGBUS);
    ::pthread_sigmask(SIG_UNBLOCK, &bus, nullptr);
}

#pragma GCC visibility pop

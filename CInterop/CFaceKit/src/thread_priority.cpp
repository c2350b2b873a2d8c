// A background thread's lower priority (fk_thread_lower_priority) and name (fk_thread_set_name). On Linux a nice value
// belongs to each thread: setpriority on the thread's own ID changes that thread alone, and the
// threads it starts later inherit it. OpenCV's pool threads are started by the first thread that
// needs them; in `track` that is the video's read-ahead thread (its grey conversion), so they run
// lowered too. That measured best (docs/benchmarks.md): their idle spinning gives way to the
// tracker's thread, which runs a parallel loop's chunks itself when the pool is slow to take them.
#include "CFaceKit.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_thread_lower_priority(int32_t steps) {
    const auto thread = id_t(syscall(SYS_gettid));
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, thread);
    if (errno != 0) return 0;
    const int lowered = std::min(19, now + std::clamp(steps, 1, 19));
    if (setpriority(PRIO_PROCESS, thread, lowered) != 0) return now;
    return lowered;
}

extern "C" void fk_thread_set_name(const char *name) {
    if (name == nullptr) return;
    pthread_setname_np(pthread_self(), std::string(name).substr(0, 15).c_str());
}

#pragma GCC visibility pop

// glibc's allocator, set for a process that decodes one large image after another.
#include "CFaceKit.h"

#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

extern "C" int32_t fk_allocator_keep_freed_memory(void) {
#if defined(__GLIBC__)
    // A thread's arena grows in heaps of at most 64 MB and unmaps a heap whose blocks are all
    // freed, so only the main arena (one for all threads) can keep a large block. mallopt takes
    // int values: 1 GB and INT_MAX stand for "never".
    const bool taken = mallopt(M_ARENA_MAX, 1) == 1 && mallopt(M_MMAP_THRESHOLD, 1 << 30) == 1 &&
                       mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
    return taken ? 1 : 0;
#else
    return 0;
#endif
}

#pragma GCC visibility pop

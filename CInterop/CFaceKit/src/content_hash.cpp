// See content_hash.hpp.
#include "content_hash.hpp"

#include <dlib/general_hash/murmur_hash3.h>

#include <algorithm>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

uint64_t fk::content_hash(const void *data, size_t size) {
    constexpr size_t piece = size_t(1) << 30;
    const auto *at = static_cast<const uint8_t *>(data);
    uint64_t hash = 0;
    do {
        const size_t length = std::min(size, piece);
        hash = dlib::murmur_hash3_128bit(at, int(length), hash).first;
        at += length, size -= length;
    } while (size > 0);
    return hash;
}

#pragma GCC visibility pop

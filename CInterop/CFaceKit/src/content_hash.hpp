// A fast checksum of file content, to tell damaged or altered data from the data it was computed
// over: dlib's MurmurHash3 (x64, 128 bits), of which the first 64 bits are kept.
#pragma once

#include <cstddef>
#include <cstdint>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// The checksum of `size` bytes at `data`: dlib::murmur_hash3_128bit's first half, over pieces of
/// at most 1 GB (the length dlib takes is an int), each seeded with the hash of those before. A
/// checksum against damage, not a defence against someone who can write the data and its checksum
/// both. The same value on every run and machine of one byte order.
uint64_t content_hash(const void *data, size_t size);

}  // namespace fk

#pragma GCC visibility pop

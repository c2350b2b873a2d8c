// Unsigned integers read from file bytes in either byte order (image headers, HEIF boxes, PNG
// chunks), one definition for the shim's readers.
#pragma once

#include <cstdint>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

inline uint32_t be16(const uint8_t *p) { return uint32_t(p[0]) << 8 | p[1]; }
inline uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }
inline uint32_t le16(const uint8_t *p) { return uint32_t(p[1]) << 8 | p[0]; }
inline uint32_t le24(const uint8_t *p) { return le16(p) | uint32_t(p[2]) << 16; }
inline uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

}  // namespace fk

#pragma GCC visibility pop

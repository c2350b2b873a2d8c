// Reading input files (images, videos) only when they are regular files.
#pragma once

#include <cstdint>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Throws fk::failure(FK_FILE_UNREADABLE) naming the reason when path is missing, cannot be
/// opened for reading, or is not a regular file (a folder, a named pipe, a socket, a device).
/// Never blocks: the type is checked before the file is opened, and again on the descriptor
/// opened with O_NONBLOCK. Returns the file's size in bytes.
int64_t check_regular_file(const char *path);

/// The whole content of the regular file at path; failures as for check_regular_file.
std::vector<uint8_t> read_regular_file(const char *path);

}  // namespace fk

#pragma GCC visibility pop

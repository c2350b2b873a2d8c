// Reading input files (images, videos) and model files only when they are regular files.
#pragma once

#include <cstdint>
#include <streambuf>
#include <vector>

#include <sys/stat.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// Throws fk::failure(FK_FILE_UNREADABLE) naming the reason when path is missing, cannot be
/// opened for reading, or is not a regular file (a folder, a named pipe, a socket, a device).
/// Never blocks: the type is checked before the file is opened, and again on the descriptor
/// opened with O_NONBLOCK. Returns the file's size in bytes.
int64_t check_regular_file(const char *path);

/// The whole content of the regular file at path; failures as for check_regular_file.
std::vector<uint8_t> read_regular_file(const char *path);

/// The largest dlib model FaceKit reads: its largest, the 68-point model, is 100 MB.
constexpr uint64_t max_dlib_model_bytes = uint64_t(1) << 30;
/// The largest ONNX network FaceKit runs: YuNet and its own networks are under 1 MB each.
constexpr uint64_t max_network_bytes = uint64_t(64) << 20;

/// A descriptor of the model file at path, opened for reading, its type and size in `st`.
/// Throws fk::failure(FK_MODEL_UNAVAILABLE) naming path and the reason when it is missing,
/// cannot be opened, is not a regular file (a named pipe, a device such as /dev/zero or a link
/// to one, a folder named like the model) or holds more than max_bytes: never blocks, and
/// never reads what no model is. The caller closes the descriptor.
int open_model_file(const char *path, uint64_t max_bytes, struct stat &st);

/// The whole content of the model file at path; failures as for open_model_file.
std::vector<char> read_model_file(const char *path, uint64_t max_bytes);

/// The bytes of a model file already read (read_model_file), as a stream for dlib's deserialize.
struct memory_buffer : std::streambuf {
    explicit memory_buffer(std::vector<char> &bytes) { setg(bytes.data(), bytes.data(), bytes.data() + bytes.size()); }
};

/// Checks the model file at path as open_model_file does, for a reader that opens it itself
/// (the tools' OpenCV cascade).
void check_model_file(const char *path, uint64_t max_bytes);

}  // namespace fk

#pragma GCC visibility pop

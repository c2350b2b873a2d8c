// Reading input files only when they are regular files.
//
// Opening a named pipe (mkfifo x.jpg) for reading blocks until a writer opens it, which may be
// never: a batch job, and every --resume of it, would hang at that file. A character device may
// never end. So the type is checked with stat before anything is opened, and again with fstat on
// a descriptor opened with O_NONBLOCK (which makes open return at once even for a pipe), in case
// the path was replaced in between. Model files are read the same way, with a bound on their
// size: a model that is a pipe hung every run, and one linked to /dev/zero was read until memory
// ran out.
#include "file_input.hpp"
#include "guard.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Why a file of this type is not read, or nullptr for a regular file.
const char *refusal(const struct stat &st) {
    if (S_ISREG(st.st_mode)) return nullptr;
    if (S_ISDIR(st.st_mode)) return "is a folder";
    if (S_ISFIFO(st.st_mode)) return "not a regular file (a named pipe)";
    if (S_ISSOCK(st.st_mode)) return "not a regular file (a socket)";
    if (S_ISCHR(st.st_mode)) return "not a regular file (a character device)";
    if (S_ISBLK(st.st_mode)) return "not a regular file (a block device)";
    return "not a regular file";
}

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

/// Opens path for reading after checking its type, and checks the type again on the descriptor;
/// a failure is `fail(reason)`.
template <typename Fail> int open_regular(const char *path, struct stat &st, Fail &&fail) {
    if (::stat(path, &st) != 0) fail(std::strerror(errno));
    if (const char *reason = refusal(st)) fail(reason);
    int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail(std::strerror(errno));
    Descriptor guard{fd};
    if (::fstat(fd, &st) != 0) fail(std::strerror(errno));
    if (const char *reason = refusal(st)) fail(reason);
    guard.fd = -1;
    return fd;
}

int open_regular(const char *path, struct stat &st) {
    return open_regular(path, st, [](const char *reason) -> void { throw fk::failure(FK_FILE_UNREADABLE, reason); });
}

/// Reads exactly bytes.size() bytes from fd; `fail(reason)` otherwise.
template <typename Bytes, typename Fail> void read_exactly(int fd, Bytes &bytes, Fail &&fail) {
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(std::strerror(errno));
        if (n == 0) fail("read error: the file became shorter while it was read");
        done += size_t(n);
    }
}

}  // namespace

int64_t fk::check_regular_file(const char *path) {
    struct stat st {};
    Descriptor descriptor{open_regular(path, st)};
    return int64_t(st.st_size);
}

std::vector<uint8_t> fk::read_regular_file(const char *path) {
    struct stat st {};
    Descriptor descriptor{open_regular(path, st)};
    // O_NONBLOCK does not affect regular files: reads below wait for the disk as usual.
    std::vector<uint8_t> bytes(size_t(st.st_size));
    read_exactly(descriptor.fd, bytes, [](const char *reason) -> void { throw fk::failure(FK_FILE_UNREADABLE, reason); });
    return bytes;
}

int fk::open_model_file(const char *path, uint64_t max_bytes, struct stat &st) {
    const auto fail = [path](const char *reason) -> void {
        // "is a folder" reads as a sentence of its own after the path.
        const std::string why = std::strcmp(reason, "is a folder") == 0 ? "it is a folder" : reason;
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot open ") + path + ": " + why);
    };
    const int fd = open_regular(path, st, fail);
    if (uint64_t(st.st_size) > max_bytes) {
        ::close(fd);
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot read ") + path + ": " +
                                                    std::to_string(uint64_t(st.st_size) >> 20) + " MB, more than the " +
                                                    std::to_string(max_bytes >> 20) + " MB such a model may have");
    }
    return fd;
}

void fk::check_model_file(const char *path, uint64_t max_bytes) {
    struct stat st {};
    Descriptor descriptor{open_model_file(path, max_bytes, st)};
}

std::vector<char> fk::read_model_file(const char *path, uint64_t max_bytes) {
    struct stat st {};
    Descriptor descriptor{open_model_file(path, max_bytes, st)};
    std::vector<char> bytes(size_t(st.st_size));
    read_exactly(descriptor.fd, bytes, [path](const char *reason) -> void {
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot read ") + path + ": " + reason);
    });
    return bytes;
}

#pragma GCC visibility pop

// Reading input files only when they are regular files.
//
// Opening a named pipe (mkfifo x.jpg) for reading blocks until a writer opens it, which may be
// never: a batch job, and every --resume of it, would hang at that file. A character device may
// never end. So the type is checked with stat before anything is opened, and again with fstat on
// a descriptor opened with O_NONBLOCK (which makes open return at once even for a pipe), in case
// the path was replaced in between.
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

[[noreturn]] void fail_errno() { throw fk::failure(FK_FILE_UNREADABLE, std::strerror(errno)); }

/// Opens path for reading after checking its type, and checks the type again on the descriptor.
int open_regular(const char *path, struct stat &st) {
    if (::stat(path, &st) != 0) fail_errno();
    if (const char *reason = refusal(st)) throw fk::failure(FK_FILE_UNREADABLE, reason);
    int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail_errno();
    Descriptor guard{fd};
    if (::fstat(fd, &st) != 0) fail_errno();
    if (const char *reason = refusal(st)) throw fk::failure(FK_FILE_UNREADABLE, reason);
    guard.fd = -1;
    return fd;
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
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::read(descriptor.fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail_errno();
        if (n == 0) throw fk::failure(FK_FILE_UNREADABLE, "read error: the file became shorter while it was read");
        done += size_t(n);
    }
    return bytes;
}

#pragma GCC visibility pop

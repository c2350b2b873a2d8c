// Creating the shim's own files: see owned_file.hpp.
#include "owned_file.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Sixteen hex digits from the kernel's random source, which no other process can predict; empty
/// when it fails.
std::string random_hex() {
    uint64_t value = 0;
    if (::getrandom(&value, sizeof value, 0) != ssize_t(sizeof value)) return {};
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace

fk::owned_file::owned_file(const std::string &path, mode_t mode) {
    const auto slash = path.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    name_ = slash == std::string::npos ? path : path.substr(slash + 1);
    if (name_.empty()) return;
    // The folder may be reached through links (a cache folder the user chose); the file's names
    // inside it never are.
    folder_ = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder_ < 0) return;
    for (int attempt = 0; attempt < 16 && fd_ < 0; ++attempt) {
        const std::string suffix = random_hex();
        if (suffix.empty()) return;
        hidden_ = "." + name_ + "." + suffix + ".tmp";
        fd_ = ::openat(folder_, hidden_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd_ < 0 && errno != EEXIST) return;
    }
}

fk::owned_file::~owned_file() {
    if (fd_ >= 0) ::close(fd_);
    if (fd_ >= 0 && !committed_) ::unlinkat(folder_, hidden_.c_str(), 0);
    if (folder_ >= 0) ::close(folder_);
}

bool fk::owned_file::commit() {
    if (fd_ < 0 || committed_) return false;
    // On disk before it is renamed into place, so that a crash cannot leave a file of the right
    // size whose blocks never reached the disk.
    if (::fsync(fd_) != 0 || ::renameat(folder_, hidden_.c_str(), folder_, name_.c_str()) != 0) return false;
    committed_ = true;
    ::fsync(folder_);
    return true;
}

#pragma GCC visibility pop

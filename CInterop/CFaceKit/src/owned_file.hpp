// The one way the shim creates a file of its own (the 68-point model's flat copy), as FaceKitCLI's
// TemporaryFile does for the command line's: in its folder, opened once and checked to be a
// folder, under a hidden name nobody can predict, opened O_CREAT | O_EXCL | O_NOFOLLOW, and
// renamed into place once complete. Nothing is ever opened through a symbolic link planted at a
// name it writes: O_EXCL fails on any name already there, and the rename replaces a link at the
// final name instead of following it.
#pragma once

#include <string>

#include <sys/types.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// A new file that takes `path`'s name once committed, and is removed if it never is.
///
/// ```cpp
/// fk::owned_file file("/cache/landmarks.flat", 0644);   // "/cache/.landmarks.flat.<16 hex>.tmp"
/// if (file.fd() >= 0 && write_all(file.fd(), ...)) file.commit();
/// ```
class owned_file {
  public:
    /// Creates the hidden file in `path`'s folder with `mode` (filtered by the umask); fd() is
    /// negative when the folder cannot be opened or the file cannot be created.
    owned_file(const std::string &path, mode_t mode);
    ~owned_file();
    owned_file(const owned_file &) = delete;
    owned_file &operator=(const owned_file &) = delete;

    /// The file, open for writing; negative when it could not be created.
    int fd() const { return fd_; }

    /// Syncs the file, renames it over `path`'s name in the same folder and syncs the folder;
    /// false (the file removed) when any of that fails.
    bool commit();

  private:
    int folder_ = -1;
    int fd_ = -1;
    std::string name_;
    std::string hidden_;
    bool committed_ = false;
};

}  // namespace fk

#pragma GCC visibility pop

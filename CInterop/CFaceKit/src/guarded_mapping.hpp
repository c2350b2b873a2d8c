// A file mapped read-only whose pages may vanish under it: when the file is cut short (truncated)
// while mapped, reading a page past its new end raises SIGBUS, which by default ends the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// A read-only mapping of a whole file that survives the file being cut short while mapped:
/// the shim's SIGBUS handler, installed with the first one, replaces every page of the mapping
/// by zeros when a read past the file's new end faults, and marks it lost(), so the read goes on
/// and its reader, which checks lost() after reading, starts again from elsewhere (the model
/// file). A fault anywhere else goes to the handler that was there before (the Swift runtime's
/// backtracer, or the default action).
///
/// ```cpp
/// auto mapping = fk::guarded_mapping::map(fd, size);   // nullptr when it cannot be made
/// use(mapping->data(), mapping->size());
/// if (mapping->lost()) start_again_without_it();
/// ```
class guarded_mapping {
  public:
    /// Maps `size` bytes (more than 0) of the file open on `fd`, read-only; nullptr when mmap
    /// fails or 64 guarded mappings are already live.
    static std::shared_ptr<guarded_mapping> map(int fd, size_t size);
    ~guarded_mapping();
    guarded_mapping(const guarded_mapping &) = delete;
    guarded_mapping &operator=(const guarded_mapping &) = delete;

    const uint8_t *data() const { return data_; }
    size_t size() const { return size_; }

    /// Whether a read faulted because the file was cut short: from then on every byte of the
    /// mapping reads as zero, and what was read from it may be wrong.
    bool lost() const;

    /// Unblocks SIGBUS on the calling thread: a fault while it is blocked ends the process
    /// whatever the handler (a process started by a thread that blocks signals inherits the
    /// mask). Call before reading the mapping on a thread.
    static void allow_faults_on_this_thread();

  private:
    guarded_mapping(const uint8_t *data, size_t size, int slot) : data_(data), size_(size), slot_(slot) {}
    const uint8_t *data_;
    size_t size_;
    int slot_;
};

}  // namespace fk

#pragma GCC visibility pop

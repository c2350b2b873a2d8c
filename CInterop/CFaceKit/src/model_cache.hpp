// The model cache's folder (ModelCache on the Swift side): which flat copy serves a model file,
// and what is kept. shape_predictor_cache.cpp writes and reads the copies themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

/// What tells one model file from another (or from itself after it changed) without reading it:
/// its size, device, inode and modification time.
struct model_identity {
    uint64_t size, device, inode;
    int64_t modified_seconds, modified_nanoseconds;
    bool operator==(const model_identity &other) const {
        return size == other.size && device == other.device && inode == other.inode &&
               modified_seconds == other.modified_seconds && modified_nanoseconds == other.modified_nanoseconds;
    }
};

namespace fk {

/// The copies of one model (say shape_predictor_68_face_landmarks) in a cache folder: one copy per
/// model content, named after the checksum of the model file it was made from
/// (`<model>-<16 hex digits>.flat`), and an index (`<model>.index`) of the model files last seen,
/// by identity, with the checksum of their content, so that a start finds its copy without
/// reading the model. Model files of the same content at several paths share one copy.
///
/// ```cpp
/// fk::model_cache cache("/home/me/.cache/facekit", "shape_predictor_68_face_landmarks");
/// if (auto content = cache.known_content(identity)) fd = cache.open_copy(*content);
/// ...
/// cache.remember(identity, content);   // and the copies no model file names are removed
/// ```
class model_cache {
  public:
    /// How many model files the index remembers, and of how many distinct contents (the newest):
    /// the copies of those contents are kept, every other copy of the model removed.
    static constexpr int remembered_models = 8;
    static constexpr int kept_contents = 2;

    /// The copies of models named `model` in `folder`; usable() is false when the folder cannot
    /// be opened.
    model_cache(const std::string &folder, const std::string &model);
    ~model_cache();
    model_cache(const model_cache &) = delete;
    model_cache &operator=(const model_cache &) = delete;

    bool usable() const { return folder_fd_ >= 0; }

    /// The checksum of the content of the model file of `identity`, as the index recorded it; none
    /// when the index does not name it (or is missing, damaged, or not a regular file).
    std::optional<uint64_t> known_content(const model_identity &identity) const;

    /// The path of the copy of a model of `content`.
    std::string copy_path(uint64_t content) const;

    /// The copy of a model of `content`, opened for reading (never through a symbolic link, never
    /// blocking), or -1 when it is missing or not a regular file. The caller closes it.
    int open_copy(uint64_t content) const;

    /// Records that the model file of `identity` holds `content` (the index keeps the last
    /// remembered_models files, forgetting what the same file held before, of the last
    /// kept_contents contents), then removes the copies of this model that no remembered file
    /// holds (other contents, and copies in the format before content checksums, one per model
    /// path), and hidden temporary files an hour old (a run killed while writing a copy).
    void remember(const model_identity &identity, uint64_t content);

  private:
    std::string folder_;
    std::string model_;
    int folder_fd_ = -1;
};

}  // namespace fk

#pragma GCC visibility pop

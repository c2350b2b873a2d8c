// The shape predictor's model as FaceKit holds it: every cascade level's splits and leaves in
// flat arrays (shape_predictor.cpp reads dlib's file into it and places points with it;
// shape_predictor_cache.cpp keeps a copy that loads without parsing).
#pragma once

#include "CFaceKit.h"
#include "guarded_mapping.hpp"

#include <dlib/geometry/vector.h>
#include <dlib/matrix.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

/// The leaves' floats, in memory the kernel may back with 2 MB pages (transparent huge pages): the
/// leaves are read at 7,500 scattered places per face, and with 4 KB pages nearly every read also
/// misses the TLB. Either a copy of their own (read from dlib's file) or a view into the flat
/// copy's file mapped read-only (shape_predictor_cache.cpp), which `memory_` keeps mapped.
class leaf_floats {
  public:
    leaf_floats() = default;
    /// A copy of values, in anonymous memory.
    explicit leaf_floats(const std::vector<float> &values) : count_(values.size()) {
        constexpr size_t huge = size_t(2) << 20;
        const size_t bytes = (count_ * sizeof(float) + huge - 1) / huge * huge;
        if (bytes == 0) return;
        void *address = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (address == MAP_FAILED) throw std::bad_alloc();
        ::madvise(address, bytes, MADV_HUGEPAGE);  // a hint: 4 KB pages still work
        std::memcpy(address, values.data(), count_ * sizeof(float));
        memory_.reset(address, [bytes](const void *at) { ::munmap(const_cast<void *>(at), bytes); });
        data_ = static_cast<const float *>(address);
    }
    /// count floats at data, inside memory that `memory` holds.
    leaf_floats(std::shared_ptr<const void> memory, const float *data, size_t count)
        : memory_(std::move(memory)), data_(data), count_(count) {}
    const float *data() const { return data_; }
    size_t size() const { return count_; }

  private:
    std::shared_ptr<const void> memory_;
    const float *data_ = nullptr;
    size_t count_ = 0;
};

/// One cascade level of the model: its trees' splits and leaves, flat.
struct cascade_level {
    struct split {
        uint32_t idx1, idx2;
        float thresh;
    };
    std::vector<unsigned long> anchor_idx;
    std::vector<dlib::vector<float, 2>> deltas;
    size_t tree_count = 0;
    size_t splits_per_tree = 0;  // leaves per tree = splits_per_tree + 1
    std::vector<split> splits;   // tree t's splits at [t * splits_per_tree, ...)
    leaf_floats leaves;          // tree t's leaf l at [(t * (splits_per_tree + 1) + l) * dims, ...)
};

namespace dlib {
class shape_predictor;
}

struct fk_shape_predictor {
    dlib::matrix<float, 0, 1> initial_shape;  // read-only after creation: shareable between threads
    std::vector<cascade_level> levels;
    /// dlib's own shape_predictor, the reference, when the points are placed on the library's
    /// code (FK_KERNEL_LANDMARKS); the flat arrays above are then empty.
    std::shared_ptr<const dlib::shape_predictor> reference;
    /// The model's number of points times 2.
    size_t dims() const;

    /// The model file, named in messages and read again when the flat copy fails.
    std::string model_path;
    /// The flat copy the leaves lie in, when they were mapped from one (read_flat), and its path.
    std::shared_ptr<fk::guarded_mapping> flat;
    std::string flat_path;

    /// Reads dlib's serialization of a shape_predictor (the .dat file's bytes); throws
    /// fk::failure(FK_MODEL_UNAVAILABLE) naming path when they are not one.
    void read_dlib(const uint8_t *bytes, size_t count, const std::string &path);

    /// Maps the flat copy open on fd (whose path is `path`) when it is whole and sound (its
    /// checksum, every count and offset against its size, every index) and was made from a model
    /// file of content `source_content`; false (this left empty) otherwise.
    bool read_flat(int fd, const std::string &path, uint64_t source_content);

    /// Writes the flat copy of this model, made from a model file of content `source_content`, to
    /// path (a hidden file beside it, then renamed); quietly does nothing when it cannot.
    void write_flat(const std::string &path, uint64_t source_content) const;

    /// The checksum a flat copy of these `size` bytes must carry in its header (the content hash
    /// of every byte after that field); 0 when they are too few for a header.
    static uint64_t flat_checksum(const uint8_t *bytes, size_t size);
    /// Where that checksum lies in the header.
    static constexpr size_t flat_checksum_offset = 16;

    /// The model's points for the face in rect: from the flat copy while it holds, else from the
    /// model file read again (once, with a message on standard error). Throws
    /// fk::failure(FK_MODEL_UNAVAILABLE) when the model file places a point at no finite position
    /// (damaged leaves) or cannot be read again.
    template <typename image_type>
    std::vector<dlib::point> place(const image_type &img, const dlib::rectangle &rect) const;

    /// dlib's shape_predictor::operator(), on the flat trees, into parts; false when a point comes
    /// out at no finite position or beyond any image (a damaged or hostile leaf: dlib itself would
    /// give INT64_MIN).
    template <typename image_type>
    bool predict(const image_type &img, const dlib::rectangle &rect, std::vector<dlib::point> &parts) const;

    /// Whether every split reads a pixel the level has and every anchor is a point of the shape.
    bool is_consistent() const;

  private:
    /// The model read again from model_path, once the flat copy failed (`why` says how, for the
    /// message); throws what reading it threw.
    const fk_shape_predictor &model_again(const char *why) const;

    uint64_t flat_device_ = 0, flat_inode_ = 0;  // the flat copy's file, removed only while still it
    mutable std::atomic<bool> flat_failed_{false};
    mutable std::once_flag reread_once_;
    mutable std::unique_ptr<fk_shape_predictor> reread_;
    mutable std::exception_ptr reread_failure_;
};

#pragma GCC visibility pop

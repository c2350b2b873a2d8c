// A flat copy of a shape predictor's model, which loads by mapping the file: its leaves are used
// where they lie.
//
// Parsing dlib's file (16 million floats in a variable-length encoding) took 250-300 ms of the
// 0.8-1 s a `facekit track` spent before its first frame. Reading this copy's 65 MB of leaves
// into fresh memory then took 0.2 s more on a virtual machine whose new pages are slow to zero
// (docs/benchmarks.md, "Start-up"); mapped, they are the page cache's pages, nothing is zeroed or
// copied, and processes share them (on ext4 the page cache holds the file in 2 MB folios, so the
// mapping gets 2 MB pages, as the copy had). The leaves start on a 4 KB boundary of the file.
//
// It is a cache, never a source of truth, and anyone who can write its folder can change it, so
// nothing in it is used before it is checked: the checksum of its whole content
// (fk::content_hash, computed when it is written and checked on every open), the checksum of the model file it was made
// from, every count and offset against the file's size, every index against what it indexes; and
// the points it places must come out finite (fk_shape_predictor::place), as a copy whose checksum
// was forged along with its leaves could give INT64_MIN coordinates. A copy that fails a check is
// ignored and the model read again. It is mapped through fk::guarded_mapping, so a copy cut short
// while in use (by another process: FaceKit only ever replaces a copy by a rename) sends the
// reader back to the model file instead of ending the process with SIGBUS. It is written under a
// hidden name nobody can predict and renamed into place (fk::owned_file), and neither written nor
// read through a symbolic link planted at its name. The layout is this machine's (native byte
// order and float format, checked by the header).
#include "content_hash.hpp"
#include "guarded_mapping.hpp"
#include "owned_file.hpp"
#include "shape_predictor.hpp"

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

constexpr char flat_magic[8] = {'F', 'K', 'S', 'H', 'A', 'P', 'E', '3'};
constexpr uint64_t leaf_alignment = 4096;  // a page: no leaf straddles more cache lines than it must
constexpr uint32_t flat_byte_order = 0x01020304;
/// No copy is larger: the 68-point model's is 65 MB (and every leaf's index must fit 32 bits).
constexpr uint64_t largest_copy = uint64_t(1) << 30;

struct flat_header {
    char magic[8];
    uint32_t byte_order;
    uint32_t float_bytes;
    uint64_t checksum;        // fk::content_hash of every byte after this field
    uint64_t source_content;  // fk::content_hash of the model file it was made from
    uint64_t dims;
    uint64_t level_count;
};

static_assert(offsetof(flat_header, checksum) == fk_shape_predictor::flat_checksum_offset, "the checksum's place");

struct flat_level_header {
    uint64_t tree_count, splits_per_tree, anchor_count;
};

static_assert(sizeof(cascade_level::split) == 12, "splits are written as three 4-byte fields");

bool write_exact(int fd, const void *from, size_t bytes) {
    const auto *at = static_cast<const char *>(from);
    while (bytes > 0) {
        const ssize_t put = ::write(fd, at, bytes);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        at += put, bytes -= size_t(put);
    }
    return true;
}

/// memcpy of `count` bytes, which may be none: memcpy's pointers must not be null even for none,
/// and an empty vector's data() is (a copy of no levels, or a level of no trees, found by
/// scripts/fuzz's cache harness under UBSan).
void copy_bytes(void *to, const void *from, size_t count) {
    if (count > 0) std::memcpy(to, from, count);
}

/// a * b + c, or false when it overflows.
bool multiply_add(uint64_t a, uint64_t b, uint64_t c, uint64_t &out) {
    uint64_t product;
    return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(product, c, &out);
}

/// Where each of a level's arrays starts in the file (byte offsets), and where the level ends.
struct level_layout {
    uint64_t splits, leaves, anchors, deltas, end;
};

/// The layout of a level of `shape` (leaves of `dims` floats) whose arrays start at `at`; false
/// when a size overflows.
bool lay_out(const flat_level_header &shape, uint64_t dims, uint64_t at, level_layout &out) {
    uint64_t splits, leaves, split_end;
    if (!multiply_add(shape.tree_count, shape.splits_per_tree, 0, splits) ||
        !multiply_add(splits, sizeof(cascade_level::split), at, split_end) ||
        !multiply_add(1, split_end, leaf_alignment - 1, out.leaves) ||
        !multiply_add(shape.tree_count, shape.splits_per_tree + 1, 0, leaves) ||
        !multiply_add(leaves, dims * sizeof(float), out.leaves & ~(leaf_alignment - 1), out.anchors) ||
        !multiply_add(shape.anchor_count, sizeof(uint64_t), out.anchors, out.deltas) ||
        !multiply_add(shape.anchor_count, 2 * sizeof(float), out.deltas, out.end))
        return false;
    out.splits = at;
    out.leaves &= ~(leaf_alignment - 1);
    return true;
}

}  // namespace

uint64_t fk_shape_predictor::flat_checksum(const uint8_t *bytes, size_t size) {
    constexpr size_t after = flat_checksum_offset + sizeof(uint64_t);
    return size < sizeof(flat_header) ? 0 : fk::content_hash(bytes + after, size - after);
}

bool fk_shape_predictor::read_flat(int fd, const std::string &path, uint64_t source_content) {
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || uint64_t(info.st_size) < sizeof(flat_header) ||
        uint64_t(info.st_size) > largest_copy)
        return false;
    const auto size = uint64_t(info.st_size);
    auto mapping = fk::guarded_mapping::map(fd, size_t(size));
    if (!mapping) return false;
    // 2 MB folios where the file system reads ahead into them.
    ::madvise(const_cast<uint8_t *>(mapping->data()), size_t(size), MADV_HUGEPAGE);
    fk::guarded_mapping::allow_faults_on_this_thread();
    const uint8_t *bytes = mapping->data();

    flat_header header{};
    std::memcpy(&header, bytes, sizeof header);
    if (std::memcmp(header.magic, flat_magic, sizeof flat_magic) != 0 || header.byte_order != flat_byte_order ||
        header.float_bytes != sizeof(float) || header.source_content != source_content)
        return false;
    // The whole file, before any count in it is believed; a file cut short meanwhile reads as
    // zeros from there on, and fails here.
    if (header.checksum != flat_checksum(bytes, size_t(size)) || mapping->lost()) return false;
    if (header.dims == 0 || header.dims % 2 != 0 || header.dims > 1u << 20 || header.level_count > 1u << 10) return false;
    uint64_t at = sizeof header + header.level_count * sizeof(flat_level_header);
    if (at + header.dims * sizeof(float) > size) return false;
    std::vector<flat_level_header> shapes(header.level_count);
    copy_bytes(shapes.data(), bytes + sizeof header, shapes.size() * sizeof(flat_level_header));
    const uint64_t initial_at = at;
    at += header.dims * sizeof(float);
    // The sizes the counts imply must add up to the file's size exactly, before anything is
    // allocated or read: a count cannot ask for more memory than the file holds.
    std::vector<level_layout> layouts(shapes.size());
    for (size_t i = 0; i < shapes.size(); ++i) {
        if (!lay_out(shapes[i], header.dims, at, layouts[i])) return false;
        at = layouts[i].end;
    }
    if (at != size) return false;

    initial_shape.set_size(long(header.dims));
    std::memcpy(&initial_shape(0), bytes + initial_at, header.dims * sizeof(float));
    levels.resize(shapes.size());
    for (size_t i = 0; i < levels.size(); ++i) {
        auto &level = levels[i];
        const auto &shape = shapes[i];
        const auto &layout = layouts[i];
        level.tree_count = size_t(shape.tree_count);
        level.splits_per_tree = size_t(shape.splits_per_tree);
        level.splits.resize(level.tree_count * level.splits_per_tree);
        copy_bytes(level.splits.data(), bytes + layout.splits, level.splits.size() * sizeof(cascade_level::split));
        level.leaves = leaf_floats(mapping, reinterpret_cast<const float *>(bytes + layout.leaves),
                                   size_t((layout.anchors - layout.leaves) / sizeof(float)));
        std::vector<uint64_t> anchors(size_t(shape.anchor_count));
        std::vector<float> deltas(2 * anchors.size());
        copy_bytes(anchors.data(), bytes + layout.anchors, anchors.size() * sizeof(uint64_t));
        copy_bytes(deltas.data(), bytes + layout.deltas, deltas.size() * sizeof(float));
        level.anchor_idx.assign(anchors.begin(), anchors.end());
        level.deltas.resize(anchors.size());
        for (size_t k = 0; k < anchors.size(); ++k) level.deltas[k] = dlib::vector<float, 2>(deltas[2 * k], deltas[2 * k + 1]);
    }
    if (!is_consistent() || mapping->lost()) {
        levels.clear();
        initial_shape.set_size(0);
        return false;
    }
    flat = std::move(mapping);
    flat_path = path;
    flat_device_ = uint64_t(info.st_dev);
    flat_inode_ = uint64_t(info.st_ino);
    return true;
}

void fk_shape_predictor::write_flat(const std::string &path, uint64_t source_content) const {
    // The whole file is laid out in memory first (65 MB, once per model content), so that its
    // checksum can go in the header.
    std::vector<uint8_t> bytes(sizeof(flat_header));
    const auto append = [&](const void *from, size_t count) {
        bytes.insert(bytes.end(), static_cast<const uint8_t *>(from), static_cast<const uint8_t *>(from) + count);
    };
    size_t total = sizeof(flat_header) + levels.size() * sizeof(flat_level_header) + dims() * sizeof(float);
    for (const auto &level : levels)
        total += level.splits.size() * sizeof(cascade_level::split) + leaf_alignment +
                 level.leaves.size() * sizeof(float) + level.anchor_idx.size() * (sizeof(uint64_t) + 2 * sizeof(float));
    bytes.reserve(total);
    for (const auto &level : levels) {
        const flat_level_header shape{level.tree_count, level.splits_per_tree, level.anchor_idx.size()};
        append(&shape, sizeof shape);
    }
    append(&initial_shape(0), dims() * sizeof(float));
    for (const auto &level : levels) {
        append(level.splits.data(), level.splits.size() * sizeof(cascade_level::split));
        bytes.resize((bytes.size() + leaf_alignment - 1) / leaf_alignment * leaf_alignment, 0);
        append(level.leaves.data(), level.leaves.size() * sizeof(float));
        for (const auto anchor : level.anchor_idx) {
            const uint64_t value = anchor;
            append(&value, sizeof value);
        }
        for (const auto &delta : level.deltas) {
            const float xy[2] = {delta.x(), delta.y()};
            append(xy, sizeof xy);
        }
    }
    flat_header header{};
    std::memcpy(header.magic, flat_magic, sizeof flat_magic);
    header.byte_order = flat_byte_order;
    header.float_bytes = sizeof(float);
    header.source_content = source_content;
    header.dims = dims();
    header.level_count = levels.size();
    std::memcpy(bytes.data(), &header, sizeof header);
    header.checksum = flat_checksum(bytes.data(), bytes.size());
    std::memcpy(bytes.data(), &header, sizeof header);

    fk::owned_file file(path, 0644);
    // Synced, then renamed into place; a copy not written whole is removed with `file`.
    if (file.fd() >= 0 && write_exact(file.fd(), bytes.data(), bytes.size())) file.commit();
}

bool fk_shape_predictor::is_consistent() const {
    if (dims() == 0 || dims() % 2 != 0) return false;
    for (const auto &level : levels) {
        if (level.deltas.size() != level.anchor_idx.size()) return false;
        if (level.splits.size() != level.tree_count * level.splits_per_tree) return false;
        if (level.leaves.size() != level.tree_count * (level.splits_per_tree + 1) * dims()) return false;
        for (const auto anchor : level.anchor_idx)
            if (anchor >= dims() / 2) return false;
        for (const auto &split : level.splits)
            if (split.idx1 >= level.deltas.size() || split.idx2 >= level.deltas.size()) return false;
    }
    return true;
}

#pragma GCC visibility pop

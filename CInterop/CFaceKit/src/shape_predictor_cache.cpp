// A flat copy of a shape predictor's model, which loads by reading its arrays straight into place.
//
// Parsing dlib's file (16 million floats in a variable-length encoding) took 250-300 ms of the
// 0.8-1 s a `facekit track` spent before its first frame; reading this copy takes a read() per
// array. It is a cache, never a source of truth: its header names the model file it was made
// from (size, device, inode, modification time), and every count and index in it is checked
// before use, so a stale, foreign, truncated or hostile copy is ignored and the model read again.
// The layout is this machine's (native byte order and float format, checked by the header).
#include "shape_predictor.hpp"

#include <cerrno>
#include <cstdio>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr char flat_magic[8] = {'F', 'K', 'S', 'H', 'A', 'P', 'E', '1'};
constexpr uint32_t flat_byte_order = 0x01020304;

struct flat_header {
    char magic[8];
    uint32_t byte_order;
    uint32_t float_bytes;
    model_identity source;
    uint64_t dims;
    uint64_t level_count;
};

struct flat_level_header {
    uint64_t tree_count, splits_per_tree, anchor_count;
};

static_assert(sizeof(cascade_level::split) == 12, "splits are written as three 4-byte fields");

bool same_identity(const model_identity &a, const model_identity &b) {
    return a.size == b.size && a.device == b.device && a.inode == b.inode && a.modified_seconds == b.modified_seconds &&
           a.modified_nanoseconds == b.modified_nanoseconds;
}

/// An open file descriptor, closed when this goes.
struct descriptor {
    int fd;
    explicit descriptor(int fd) : fd(fd) {}
    ~descriptor() {
        if (fd >= 0) ::close(fd);
    }
    descriptor(const descriptor &) = delete;
    descriptor &operator=(const descriptor &) = delete;
};

bool read_exact(int fd, void *into, size_t bytes) {
    auto *at = static_cast<char *>(into);
    while (bytes > 0) {
        const ssize_t got = ::read(fd, at, bytes);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        at += got, bytes -= size_t(got);
    }
    return true;
}

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

/// a * b + c, or false when it overflows.
bool multiply_add(uint64_t a, uint64_t b, uint64_t c, uint64_t &out) {
    uint64_t product;
    return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(product, c, &out);
}

}  // namespace

bool fk_shape_predictor::read_flat(const char *path, const model_identity &source) {
    const descriptor file(::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    struct stat info {};
    if (file.fd < 0 || ::fstat(file.fd, &info) != 0 || !S_ISREG(info.st_mode)) return false;
    flat_header header{};
    if (!read_exact(file.fd, &header, sizeof header)) return false;
    if (std::memcmp(header.magic, flat_magic, sizeof flat_magic) != 0 || header.byte_order != flat_byte_order ||
        header.float_bytes != sizeof(float) || !same_identity(header.source, source))
        return false;
    if (header.dims == 0 || header.dims % 2 != 0 || header.dims > 1u << 20 || header.level_count > 1u << 10) return false;
    std::vector<flat_level_header> shapes(header.level_count);
    if (!read_exact(file.fd, shapes.data(), shapes.size() * sizeof(flat_level_header))) return false;
    // The sizes the counts imply must add up to the file's size exactly, before anything is
    // allocated: a count cannot ask for more memory than the file holds.
    uint64_t expected = sizeof header + shapes.size() * sizeof(flat_level_header) + header.dims * sizeof(float);
    for (const auto &shape : shapes) {
        uint64_t splits, leaves;
        if (!multiply_add(shape.tree_count, shape.splits_per_tree, 0, splits) ||
            !multiply_add(shape.tree_count, shape.splits_per_tree + 1, 0, leaves) ||
            !multiply_add(leaves, header.dims * sizeof(float), 0, leaves) ||
            !multiply_add(splits, sizeof(cascade_level::split), expected, expected) ||
            !multiply_add(1, leaves, expected, expected) ||
            !multiply_add(shape.anchor_count, sizeof(uint64_t) + 2 * sizeof(float), expected, expected))
            return false;
    }
    if (expected != uint64_t(info.st_size)) return false;

    initial_shape.set_size(long(header.dims));
    if (!read_exact(file.fd, &initial_shape(0), header.dims * sizeof(float))) return false;
    levels.resize(shapes.size());
    for (size_t i = 0; i < levels.size(); ++i) {
        auto &level = levels[i];
        const auto &shape = shapes[i];
        level.tree_count = size_t(shape.tree_count);
        level.splits_per_tree = size_t(shape.splits_per_tree);
        level.splits.resize(level.tree_count * level.splits_per_tree);
        level.leaves = huge_page_floats(level.tree_count * (level.splits_per_tree + 1) * header.dims);
        std::vector<uint64_t> anchors(size_t(shape.anchor_count));
        level.deltas.resize(anchors.size());
        std::vector<float> deltas(2 * anchors.size());
        if (!read_exact(file.fd, level.splits.data(), level.splits.size() * sizeof(cascade_level::split)) ||
            !read_exact(file.fd, level.leaves.data(), level.leaves.size() * sizeof(float)) ||
            !read_exact(file.fd, anchors.data(), anchors.size() * sizeof(uint64_t)) ||
            !read_exact(file.fd, deltas.data(), deltas.size() * sizeof(float)))
            return false;
        level.anchor_idx.assign(anchors.begin(), anchors.end());
        for (size_t k = 0; k < anchors.size(); ++k) level.deltas[k] = dlib::vector<float, 2>(deltas[2 * k], deltas[2 * k + 1]);
    }
    if (!is_consistent()) {
        levels.clear();
        initial_shape.set_size(0);
        return false;
    }
    return true;
}

void fk_shape_predictor::write_flat(const char *path, const model_identity &source) const {
    const std::string temporary = std::string(path) + ".partial-" + std::to_string(::getpid());
    bool written;
    {
        const descriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
        if (file.fd < 0) return;
        flat_header header{};
        std::memcpy(header.magic, flat_magic, sizeof flat_magic);
        header.byte_order = flat_byte_order;
        header.float_bytes = sizeof(float);
        header.source = source;
        header.dims = dims();
        header.level_count = levels.size();
        written = write_exact(file.fd, &header, sizeof header);
        for (const auto &level : levels) {
            const flat_level_header shape{level.tree_count, level.splits_per_tree, level.anchor_idx.size()};
            written = written && write_exact(file.fd, &shape, sizeof shape);
        }
        written = written && write_exact(file.fd, &initial_shape(0), dims() * sizeof(float));
        for (const auto &level : levels) {
            const std::vector<uint64_t> anchors(level.anchor_idx.begin(), level.anchor_idx.end());
            std::vector<float> deltas;
            for (const auto &delta : level.deltas) deltas.insert(deltas.end(), {delta.x(), delta.y()});
            written = written && write_exact(file.fd, level.splits.data(), level.splits.size() * sizeof(cascade_level::split)) &&
                      write_exact(file.fd, level.leaves.data(), level.leaves.size() * sizeof(float)) &&
                      write_exact(file.fd, anchors.data(), anchors.size() * sizeof(uint64_t)) &&
                      write_exact(file.fd, deltas.data(), deltas.size() * sizeof(float));
        }
        // On disk before it is renamed into place, so that a crash cannot leave a copy of the
        // right size whose blocks never reached the disk.
        written = written && ::fsync(file.fd) == 0;
    }
    if (!written || ::rename(temporary.c_str(), path) != 0) ::unlink(temporary.c_str());
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

// libFuzzer harness for the model cache's readers: any bytes, as the 68-point model's flat copy
// (the memory-mapped file of shape_predictor_cache.cpp) or as the cache's index of model files
// (model_cache.cpp), must be refused or read without a crash, a hang, a leak or undefined
// behaviour; a copy that is read must place points or fail with a status, never give points at
// no finite position (scripts/fuzz builds and runs it; docs/architecture.md, "Fuzzing the C
// boundary").
//
// Both files carry a checksum of their content, which random bytes never match: each input is
// read as it is, and again with its checksum made right, so that the checks behind it (counts,
// offsets, indexes, the leaves' values) are what the fuzzer explores.
//
// The seeds are written by this harness itself from the shim's own writers, so that they follow
// the format: FK_FUZZ_WRITE_SEEDS=<folder> fuzz-cache writes a small sound copy, copies with a
// leaf of 1e30 and of NaN, and an index of three model files into <folder>, then exits
// (scripts/fuzz does this before each run).
#include "CFaceKit.h"
#include "fuzz_checks.hpp"
#include "content_hash.hpp"
#include "image.hpp"
#include "model_cache.hpp"
#include "shape_predictor.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <fcntl.h>
#include <ftw.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

/// The model name the index is read under, in a folder of this process's own.
constexpr char model[] = "fuzz";

uint64_t read_u64(const std::vector<uint8_t> &bytes, size_t at) {
    uint64_t value = 0;
    if (bytes.size() >= at + 8) std::memcpy(&value, bytes.data() + at, 8);
    return value;
}

/// A 48x48 grey picture with some texture, for the copy's points to be placed on.
fk_image *picture() {
    static fk_image *image = [] {
        std::vector<uint8_t> grey(48 * 48);
        for (size_t i = 0; i < grey.size(); ++i) grey[i] = uint8_t((i * 37) ^ (i / 48 * 11));
        fk_image *made = nullptr;
        fk_error error{};
        if (fk_image_create_from_pixels(grey.data(), 48, 48, 48, FK_PIXEL_GRAY8, &made, &error) != FK_OK) std::abort();
        return made;
    }();
    return image;
}

/// Reads `bytes` as a flat copy made from a model of the content its header names; when it
/// reads, places its points in a box of the picture.
void read_copy(const std::vector<uint8_t> &bytes) {
    static const int fd = memfd_create("fuzz-cache-copy", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 0) != 0 ||
        (!bytes.empty() && pwrite(fd, bytes.data(), bytes.size(), 0) != ssize_t(bytes.size())))
        std::abort();
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    // The source's checksum lies after the copy's own (flat_header in shape_predictor_cache.cpp).
    const uint64_t source = read_u64(bytes, fk_shape_predictor::flat_checksum_offset + 8);
    auto *predictor = new fk_shape_predictor();
    // No model file to fall back to: a copy that fails once read fails with a status.
    predictor->model_path = "/nonexistent/fuzz-model.dat";
    if (predictor->read_flat(fd, path, source)) {
        if (!predictor->is_consistent() || predictor->dims() == 0) std::abort();
        int32_t count = 0;
        fk_error error{};
        fuzz::check_error(fk_shape_predictor_point_count(predictor, &count, &error), error);
        if (count > 0 && count <= 4096) {
            const fk_rect box{8, 6, 30, 34};
            std::vector<fk_point> points(static_cast<size_t>(count));
            const int32_t status = fk_shape_predictor_predict(predictor, picture(), &box, 1, points.data(), count, &error);
            fuzz::check_error(status, error);
            if (status == FK_OK)
                for (const auto &point : points)
                    if (!std::isfinite(point.x) || !std::isfinite(point.y)) {
                        std::fprintf(stderr, "a point at no finite position\n");
                        std::abort();
                    }
        }
    }
    fk_shape_predictor_free(predictor);
}

std::string &folder() {
    static std::string path;
    return path;
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *) { return ::remove(path); }

/// A folder of this process's own for the index (memory-backed where /dev/shm is), removed at exit.
const std::string &index_folder() {
    if (folder().empty()) {
        const char *base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
        std::string pattern = std::string(base) + "/facekit-fuzz-cache-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) std::abort();
        folder() = pattern;
        std::atexit([] { ::nftw(folder().c_str(), remove_entry, 8, FTW_DEPTH | FTW_PHYS); });
    }
    return folder();
}

/// Reads `bytes` as the index of the model files seen: asks it for the first record's model
/// (or an arbitrary one) and, when `remembering`, records another and prunes, as a start does.
void read_index(const std::vector<uint8_t> &bytes, bool remembering) {
    const std::string &dir = index_folder();
    const std::string path = dir + "/" + model + ".index";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 || (!bytes.empty() && ::write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()))) std::abort();
    ::close(fd);
    model_identity identity{};
    if (bytes.size() >= 16 + sizeof identity) std::memcpy(&identity, bytes.data() + 16, sizeof identity);
    fk::model_cache cache(dir, model);
    if (!cache.usable()) std::abort();
    (void)cache.known_content(identity);
    if (remembering) {
        identity.inode ^= 1;
        cache.remember(identity, read_u64(bytes, 16 + sizeof identity));
        (void)cache.known_content(identity);
    }
}

/// The seeds: a small sound copy of two points (two trees of one split, two anchors), the same
/// with a leaf of 1e30 and of NaN, and an index naming three model files.
void write_seeds(const std::string &to) {
    fk_shape_predictor tiny;
    tiny.initial_shape.set_size(4);
    tiny.initial_shape = 0.3f, 0.35f, 0.7f, 0.65f;
    cascade_level level;
    level.tree_count = 2;
    level.splits_per_tree = 1;
    level.anchor_idx = {0, 1};
    level.deltas = {dlib::vector<float, 2>(0.01f, 0.02f), dlib::vector<float, 2>(-0.02f, 0.01f)};
    level.splits = {{0, 1, 3.5f}, {1, 0, -2.0f}};
    std::vector<float> leaves(level.tree_count * (level.splits_per_tree + 1) * 4);
    for (size_t i = 0; i < leaves.size(); ++i) leaves[i] = 0.01f * float(int(i % 5) - 2);
    level.leaves = leaf_floats(leaves);
    tiny.levels.push_back(level);
    tiny.levels.push_back(level);
    tiny.write_flat(to + "/copy-sound.flat", 0x1234);
    leaves[5] = 1e30f;
    tiny.levels[1].leaves = leaf_floats(leaves);
    tiny.write_flat(to + "/copy-leaf-1e30.flat", 0x1234);
    leaves[5] = std::numeric_limits<float>::quiet_NaN();
    tiny.levels[1].leaves = leaf_floats(leaves);
    tiny.write_flat(to + "/copy-leaf-nan.flat", 0x1234);

    fk::model_cache cache(to, "seed");
    for (uint64_t i = 1; i <= 3; ++i) cache.remember(model_identity{95'080'152, 2049, 1000 + i, 1733400000, 5}, 0xABC0 + i % 2);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    if (const char *to = std::getenv("FK_FUZZ_WRITE_SEEDS")) {
        write_seeds(to);
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::vector<uint8_t> bytes(data, data + size);
    read_copy(bytes);
    read_index(bytes, false);

    // The copy's checksum (of every byte after its field) made right.
    std::vector<uint8_t> copy = bytes;
    if (copy.size() >= fk_shape_predictor::flat_checksum_offset + 8) {
        const uint64_t checksum = fk_shape_predictor::flat_checksum(copy.data(), copy.size());
        std::memcpy(copy.data() + fk_shape_predictor::flat_checksum_offset, &checksum, 8);
        read_copy(copy);
    }
    // The index's (its last 8 bytes, of every byte before them) made right.
    if (bytes.size() >= 8) {
        const uint64_t checksum = fk::content_hash(bytes.data(), bytes.size() - 8);
        std::memcpy(bytes.data() + bytes.size() - 8, &checksum, 8);
        read_index(bytes, true);
    }
    return 0;
}

// Landmark placement with dlib's shape_predictor (the 68-point iBUG 300-W model and others),
// evaluated from a flat copy of its trees.
//
// dlib keeps each of the model's 120,000 leaves (15 cascades x 500 trees x 16 leaves of 136
// floats, 65 MB) in its own heap block, so a prediction chases 7,500 pointers into them and
// waits on memory for each: about 7 ms per face on the 2-core machine of docs/benchmarks.md.
// Here every cascade's splits and leaves sit in two contiguous arrays, all the leaves a cascade
// level selects are found first (they depend only on that level's pixel values), the walk down
// each tree has no branch, and the sum fetches the leaves ahead of use. The arithmetic is dlib's,
// in dlib's order, so the points are the same to the last bit as dlib's own shape_predictor gives
// (checked on the Helen photos with 3,300 boxes, last on 1 December 2026; the tests pin
// obama.jpg's jaw to face_recognition's).
//
// Storing the leaves in 16 bits (half the memory read) was tried and dropped: the cascade is
// chaotic, so a rounding step in one leaf moves a sampled pixel, flips later splits, and moved 40%
// of the points on those boxes (up to 186 px on a bad box; the same mean error over all), for
// about 10% of the prediction's time.
#include "CFaceKit.h"
#include "content_hash.hpp"
#include "file_input.hpp"
#include "guarded_mapping.hpp"
#include "guard.hpp"
#include "image.hpp"
#include "kernel_path.hpp"
#include "model_cache.hpp"
#include "shape_predictor.hpp"

#include <dlib/image_processing/shape_predictor.h>
#include <dlib/opencv/cv_image.h>
#include <opencv2/core/utility.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <new>
#include <type_traits>
#include <exception>
#include <istream>
#include <memory>
#include <streambuf>
#include <mutex>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

/// Reads dlib's serialization format (dlib/serialize.h) from bytes in memory. dlib's own
/// deserialize goes through std::istream a byte at a time and converts each float with ldexp
/// behind several calls: 0.8 s for the 68-point model's 16 million floats. This reads the same
/// bytes with the same arithmetic in about a tenth of that. Integers are a control byte (bits 0-3:
/// the number of bytes, bit 7: negative) then little-endian bytes; a float is its mantissa and
/// exponent as two such integers (dlib::float_details).
class dlib_reader {
  public:
    dlib_reader(const uint8_t *bytes, size_t count, std::string path)
        : at_(bytes), end_(bytes + count), path_(std::move(path)) {}

    template <typename T> T integer() {
        const uint8_t control = byte();
        const bool negative = control & 0x80;
        const unsigned size = control & 0x0F;
        if (size == 0 || size > sizeof(T) || (negative && !std::is_signed<T>::value)) fail("a malformed integer");
        if (size_t(end_ - at_) < size) fail("data that ends early");
        uint64_t magnitude = 0;
        for (unsigned i = size; i-- > 0;) magnitude = magnitude << 8 | at_[i];
        at_ += size;
        return negative ? T(-int64_t(magnitude)) : T(magnitude);
    }

    float real() {
        if (at_ < end_ && (*at_ & 0x70) != 0) fail("dlib's old text format for numbers");
        const auto mantissa = integer<int64_t>();
        const auto exponent = integer<int16_t>();
        if (exponent >= -126 && exponent <= 127) {
            // ldexp(float(mantissa), exponent) without the call: multiplying by 2^exponent, which
            // a float holds exactly, rounds the same way ldexp does.
            const uint32_t bits = uint32_t(exponent + 127) << 23;
            float power;
            std::memcpy(&power, &bits, sizeof power);
            return float(mantissa) * power;
        }
        if (exponent < 32000) return std::ldexp(float(mantissa), exponent);
        if (exponent == 32000) return std::numeric_limits<float>::infinity();
        if (exponent == 32001) return -std::numeric_limits<float>::infinity();
        return std::numeric_limits<float>::quiet_NaN();
    }

    /// The element count of a std::vector, bounded by what the bytes left could hold.
    size_t count() {
        const auto n = integer<uint64_t>();
        if (n > size_t(end_ - at_)) fail("a count larger than the file");
        return size_t(n);
    }

    /// A dlib::matrix<float,0,1>, read into out (cleared first).
    void column(std::vector<float> &out) {
        auto rows = integer<int64_t>(), columns = integer<int64_t>();
        if (rows < 0 || columns < 0) rows = -rows, columns = -columns;  // dlib's newer layout
        if (columns != 1 || size_t(rows) > size_t(end_ - at_)) fail("a matrix that is not a column");
        out.resize(size_t(rows));
        for (auto &value : out) value = real();
    }

    [[noreturn]] void fail(const std::string &what) const {
        throw fk::failure(FK_MODEL_UNAVAILABLE, path_ + " is not a shape predictor: " + what);
    }

  private:
    uint8_t byte() {
        if (at_ == end_) fail("data that ends early");
        return *at_++;
    }
    const uint8_t *at_;
    const uint8_t *end_;
    std::string path_;
};

/// A model file mapped into memory, read-only, for as long as this lives: no copy of the model's
/// 95 MB is made to parse it. Only a regular file of a model's size is mapped
/// (fk::open_model_file), through fk::guarded_mapping: a model file cut short while it is read
/// is reported, not a SIGBUS.
class mapped_file {
  public:
    explicit mapped_file(const char *path) : path_(path) {
        struct stat info {};
        const int fd = fk::open_model_file(path, fk::max_dlib_model_bytes, info);
        size_ = size_t(info.st_size);
        identity_ = {uint64_t(info.st_size), uint64_t(info.st_dev), uint64_t(info.st_ino), int64_t(info.st_mtim.tv_sec),
                     int64_t(info.st_mtim.tv_nsec)};
        if (size_ > 0) {
            mapping_ = fk::guarded_mapping::map(fd, size_);
            const int mapping_errno = errno;
            ::close(fd);
            if (!mapping_)
                throw fk::failure(FK_MODEL_UNAVAILABLE, std::string("cannot read ") + path + ": " + std::strerror(mapping_errno));
            ::madvise(const_cast<uint8_t *>(mapping_->data()), size_, MADV_SEQUENTIAL);
            fk::guarded_mapping::allow_faults_on_this_thread();
        } else {
            ::close(fd);
        }
    }
    const uint8_t *data() const { return mapping_ ? mapping_->data() : nullptr; }
    size_t size() const { return size_; }
    const model_identity &identity() const { return identity_; }

    /// The checksum of the file's content (fk::content_hash, 60 ms for the 68-point model).
    uint64_t content() const {
        const uint64_t hash = fk::content_hash(data(), size_);
        check_whole();
        return hash;
    }

    /// Throws fk::failure(FK_MODEL_UNAVAILABLE) when the file was cut short while it was read.
    void check_whole() const {
        if (mapping_ && mapping_->lost())
            throw fk::failure(FK_MODEL_UNAVAILABLE, "cannot read " + path_ + ": the file was cut short while it was read");
    }

  private:
    std::string path_;
    std::shared_ptr<fk::guarded_mapping> mapping_;
    size_t size_ = 0;
    model_identity identity_{};
};

/// Maps the cache's copy of a model of `content` into predictor when it is there and sound.
bool read_copy(fk_shape_predictor &predictor, const fk::model_cache &cache, uint64_t content) {
    const int fd = cache.open_copy(content);
    if (fd < 0) return false;
    const bool read = predictor.read_flat(fd, cache.copy_path(content), content);
    ::close(fd);
    return read;
}

/// The model's file name without its extension, which names its copies in the cache.
std::string model_name(const char *path) {
    std::string name = path;
    if (const auto slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.erase(dot);
    return name;
}

/// text with every byte that is not printable ASCII as \xNN, as FaceKit's own messages write paths.
std::string printable(const std::string &text) {
    std::string out;
    for (const unsigned char c : text) {
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += char(c);
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += escaped;
        }
    }
    return out;
}

}  // namespace

/// Reads what dlib::deserialize(shape_predictor&) reads, in its order, straight into the flat
/// layout: version 1, the initial shape, the forests (per cascade level, per tree: splits as
/// idx1, idx2, thresh, then leaves), the anchor indices and the pixel deltas.
void fk_shape_predictor::read_dlib(const uint8_t *bytes, size_t count, const std::string &path) {
    dlib_reader in(bytes, count, path);
    if (in.integer<int32_t>() != 1) in.fail("an unknown version");
    std::vector<float> initial;
    in.column(initial);
    if (initial.empty() || initial.size() % 2 != 0) in.fail("an initial shape of odd size");
    initial_shape.set_size(long(initial.size()));
    std::copy(initial.begin(), initial.end(), &initial_shape(0));
    levels.resize(in.count());
    std::vector<float> leaf, leaves;
    for (auto &level : levels) {
        leaves.clear();
        level.tree_count = in.count();
        for (size_t t = 0; t < level.tree_count; ++t) {
            const size_t splits = in.count();
            if (t == 0) level.splits_per_tree = splits;
            // dlib requires full trees of one depth; check rather than trust the file.
            if (splits != level.splits_per_tree) in.fail("trees of different depths");
            for (size_t i = 0; i < splits; ++i) {
                const auto idx1 = in.integer<uint64_t>(), idx2 = in.integer<uint64_t>();
                level.splits.push_back({uint32_t(idx1), uint32_t(idx2), in.real()});
            }
            if (in.count() != splits + 1) in.fail("a tree whose leaves do not match its splits");
            for (size_t l = 0; l <= splits; ++l) {
                in.column(leaf);
                if (leaf.size() != dims()) in.fail("a leaf of the wrong size");
                leaves.insert(leaves.end(), leaf.begin(), leaf.end());
            }
        }
        level.leaves = leaf_floats(leaves);
    }
    if (in.count() != levels.size()) in.fail("anchor indices that do not match the cascade");
    for (auto &level : levels) {
        level.anchor_idx.resize(in.count());
        for (auto &anchor : level.anchor_idx) {
            anchor = in.integer<uint64_t>();
            if (anchor >= dims() / 2) in.fail("a pixel anchored to a point the shape lacks");
        }
    }
    if (in.count() != levels.size()) in.fail("pixel offsets that do not match the cascade");
    for (auto &level : levels) {
        level.deltas.resize(in.count());
        for (auto &delta : level.deltas) {
            const float x = in.real(), y = in.real();
            delta = dlib::vector<float, 2>(x, y);
        }
        if (level.deltas.size() != level.anchor_idx.size()) in.fail("pixel offsets without anchors");
        for (const auto &split : level.splits)
            if (split.idx1 >= level.deltas.size() || split.idx2 >= level.deltas.size())
                in.fail("a split that reads a pixel the model lacks");
    }
}

namespace {

/// Whether a point is finite and within 2^31 pixels of the origin, beyond any image: only such a
/// point converts to whole pixels (dlib's conversion of a NaN or of 1e30 is undefined, and x86
/// gives INT64_MIN).
bool placeable(const dlib::dpoint &p) {
    constexpr double far = 2147483648.0;
    return std::fabs(p.x()) < far && std::fabs(p.y()) < far;  // false for NaN too
}

/// dlib::impl::extract_feature_pixel_values, given the box's transform to the image: the
/// intensity of each pixel the level reads, placed relative to current_shape (0 outside the
/// image). dlib's arithmetic in dlib's order, so the same values.
template <typename image_type>
void feature_pixel_values(const image_type &img, const dlib::point_transform_affine &to_image,
                          const dlib::matrix<float, 0, 1> &current_shape, const dlib::matrix<float, 0, 1> &reference_shape,
                          const cascade_level &level, std::vector<float> &out) {
    const dlib::matrix<float, 2, 2> tform =
        dlib::matrix_cast<float>(dlib::impl::find_tform_between_shapes(reference_shape, current_shape).get_m());
    const dlib::rectangle area = dlib::get_rect(img);
    const dlib::const_image_view<image_type> view(img);
    out.resize(level.deltas.size());
    for (size_t i = 0; i < out.size(); ++i) {
        const dlib::dpoint q =
            to_image(tform * level.deltas[i] + dlib::impl::location(current_shape, level.anchor_idx[i]));
        // A damaged leaf can put the shape anywhere, or nowhere (NaN), where the conversion to
        // whole pixels is undefined: such a pixel lies outside the image.
        if (!placeable(q)) {
            out[i] = 0;
            continue;
        }
        const dlib::point p = q;
        out[i] = area.contains(p) ? float(dlib::get_pixel_intensity(view[p.y()][p.x()])) : 0;
    }
}

}  // namespace

/// dlib's shape_predictor::operator(), on the flat trees.
template <typename image_type>
bool fk_shape_predictor::predict(const image_type &img, const dlib::rectangle &rect, std::vector<dlib::point> &parts) const {
    dlib::matrix<float, 0, 1> current_shape = initial_shape;
    std::vector<float> pixels;
    std::vector<uint32_t> chosen;
    const size_t d = dims();
    // dlib finds this transform again at every level, with an SVD each time: it depends only on
    // the box.
    const dlib::point_transform_affine to_image = dlib::impl::unnormalizing_tform(rect);
    for (const auto &level : levels) {
        feature_pixel_values(img, to_image, current_shape, initial_shape, level, pixels);
        const size_t leaves_per_tree = level.splits_per_tree + 1;
        chosen.resize(level.tree_count);
        for (size_t t = 0; t < level.tree_count; ++t) {
            const cascade_level::split *splits = &level.splits[t * level.splits_per_tree];
            size_t i = 0;
            // Left (2i + 1) when the pixel difference exceeds the threshold, else right, as
            // dlib does, but without a branch: to the CPU's branch predictor the direction is
            // a coin toss, and mispredicting 30,000 splits per face took a third of the time.
            while (i < level.splits_per_tree)
                i = 2 * i + 2 - size_t(pixels[splits[i].idx1] - pixels[splits[i].idx2] > splits[i].thresh);
            chosen[t] = uint32_t(t * leaves_per_tree + (i - level.splits_per_tree));
        }
        float *shape = &current_shape(0);
        constexpr size_t ahead = 8;
        for (size_t t = 0; t < level.tree_count; ++t) {
            if (t + ahead < level.tree_count) {
                const float *next = level.leaves.data() + size_t(chosen[t + ahead]) * d;
                for (size_t b = 0; b < d * sizeof(float); b += 64) __builtin_prefetch(reinterpret_cast<const char *>(next) + b);
            }
            const float *leaf = level.leaves.data() + size_t(chosen[t]) * d;
            for (size_t k = 0; k < d; ++k) shape[k] += leaf[k];
        }
    }
    parts.resize(d / 2);
    for (size_t i = 0; i < parts.size(); ++i) {
        const dlib::dpoint p = to_image(dlib::impl::location(current_shape, i));
        if (!placeable(p)) return false;
        parts[i] = p;
    }
    return true;
}

template <typename image_type>
std::vector<dlib::point> fk_shape_predictor::place(const image_type &img, const dlib::rectangle &rect) const {
    std::vector<dlib::point> parts;
    if (!flat) {
        if (!predict(img, rect, parts))
            throw fk::failure(FK_MODEL_UNAVAILABLE, model_path + " places points at no finite position: the model is damaged");
        return parts;
    }
    if (!flat_failed_.load(std::memory_order_acquire)) {
        fk::guarded_mapping::allow_faults_on_this_thread();
        const bool placed = predict(img, rect, parts);
        // Checked after the leaves were read: a fault while reading them made them zeros.
        if (!flat->lost() && placed) return parts;
        flat_failed_.store(true, std::memory_order_release);
        return model_again(flat->lost() ? "was cut short while in use" : "places points at no finite position")
            .place(img, rect);
    }
    return model_again(nullptr).place(img, rect);
}

const fk_shape_predictor &fk_shape_predictor::model_again(const char *why) const {
    std::call_once(reread_once_, [&] {
        std::fprintf(stderr, "facekit: the model cache %s %s; reading %s again\n", printable(flat_path).c_str(),
                     why != nullptr ? why : "failed", printable(model_path).c_str());
        // A copy that is still the one mapped is removed, so that the next run makes it anew.
        struct stat now {};
        if (::lstat(flat_path.c_str(), &now) == 0 && S_ISREG(now.st_mode) && now.st_dev == flat_device_ &&
            now.st_ino == flat_inode_)
            ::unlink(flat_path.c_str());
        try {
            const mapped_file file(model_path.c_str());
            auto model = std::make_unique<fk_shape_predictor>();
            model->model_path = model_path;
            model->read_dlib(file.data(), file.size(), model_path);
            file.check_whole();
            reread_ = std::move(model);
        } catch (...) {
            reread_failure_ = std::current_exception();
        }
    });
    if (reread_failure_) std::rethrow_exception(reread_failure_);
    return *reread_;
}

size_t fk_shape_predictor::dims() const {
    return reference ? size_t(reference->num_parts()) * 2 : size_t(initial_shape.size());
}

namespace {

/// The bytes of a file already read, as a stream for dlib's deserialize.
struct byte_stream_buffer : std::streambuf {
    explicit byte_stream_buffer(std::vector<char> &bytes) { setg(bytes.data(), bytes.data(), bytes.data() + bytes.size()); }
};

/// dlib's own shape_predictor read from `model_path` by dlib's own reader (the file checked and
/// read whole first, as every model file is: dlib's reader would wait on a named pipe).
std::shared_ptr<const dlib::shape_predictor> read_reference(const char *model_path) {
    std::vector<char> bytes = fk::read_model_file(model_path, fk::max_dlib_model_bytes);
    byte_stream_buffer buffer(bytes);
    std::istream in(&buffer);
    auto model = std::make_shared<dlib::shape_predictor>();
    try {
        dlib::deserialize(*model, in);
    } catch (const dlib::serialization_error &e) {
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) + " is not a dlib shape predictor: " + e.what());
    }
    if (model->num_parts() == 0)
        throw fk::failure(FK_MODEL_UNAVAILABLE, std::string(model_path) + " is a shape predictor of no points");
    return model;
}

}  // namespace

extern "C" int32_t fk_shape_predictor_create(const char *model_path, const char *cache_folder,
                                             fk_shape_predictor **out, fk_error *error) {
    return fk_shape_predictor_create_on_path(model_path, cache_folder, FK_PATH_FROM_ENVIRONMENT, out, error);
}

extern "C" int32_t fk_shape_predictor_create_on_path(const char *model_path, const char *cache_folder, int32_t path,
                                                     fk_shape_predictor **out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(model_path != nullptr && out != nullptr, "model_path and out must not be NULL");
        if (fk::use_reference(FK_KERNEL_LANDMARKS, path)) {
            // dlib's own reader and trees: no flat copy, no cache.
            auto predictor = std::make_unique<fk_shape_predictor>();
            predictor->model_path = model_path;
            predictor->reference = read_reference(model_path);
            *out = predictor.release();
            return;
        }
        const mapped_file file(model_path);
        auto predictor = std::make_unique<fk_shape_predictor>();
        predictor->model_path = model_path;
        // The flat copy is only a faster way to the same numbers: any trouble with it (none yet,
        // another model's, damaged, a read-only folder) falls back to reading the model itself.
        bool read = false;
        if (cache_folder != nullptr) {
            fk::model_cache cache(cache_folder, model_name(model_path));
            if (cache.usable()) {
                // The usual start: the index knows this model file, and its copy is sound.
                const auto known = cache.known_content(file.identity());
                read = known && read_copy(*predictor, cache, *known);
                if (!read) {
                    // A model file not seen before (or whose copy failed): its content names the
                    // copy, which another path to the same content may have made already.
                    const uint64_t content = file.content();
                    read = content != known && read_copy(*predictor, cache, content);
                    if (!read) {
                        predictor->read_dlib(file.data(), file.size(), model_path);
                        file.check_whole();
                        predictor->write_flat(cache.copy_path(content), content);
                        read = true;
                    }
                    cache.remember(file.identity(), content);
                }
            }
        }
        if (!read) {
            predictor->read_dlib(file.data(), file.size(), model_path);
            file.check_whole();
        }
        *out = predictor.release();
    });
}

extern "C" void fk_shape_predictor_free(fk_shape_predictor *predictor) { const fk::native_call call; delete predictor; }

extern "C" int32_t fk_shape_predictor_point_count(const fk_shape_predictor *predictor, int32_t *count,
                                                  fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(predictor != nullptr && count != nullptr, "NULL argument");
        *count = int32_t(predictor->dims() / 2);
    });
}

namespace {

/// dlib's rectangle for `box`, which must be finite and at least 1x1.
dlib::rectangle dlib_rectangle(const fk_rect &box) {
    fk::require(std::isfinite(box.x) && std::isfinite(box.y) && box.width >= 1 && box.height >= 1,
                "box must be finite and at least 1x1");
    return dlib::rectangle(long(std::lround(box.x)), long(std::lround(box.y)),
                           long(std::lround(box.x + box.width)) - 1, long(std::lround(box.y + box.height)) - 1);
}

}  // namespace

extern "C" int32_t fk_shape_predictor_predict(const fk_shape_predictor *predictor, const fk_image *image,
                                              const fk_rect *boxes, int32_t box_count, fk_point *out,
                                              int32_t capacity, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(predictor != nullptr && image != nullptr && box_count >= 0, "NULL argument or negative count");
        fk::require(box_count == 0 || (boxes != nullptr && out != nullptr), "NULL boxes or out");
        const auto parts = size_t(predictor->dims() / 2);
        fk::require(capacity >= 0 && size_t(capacity) >= size_t(box_count) * parts,
                    "capacity is less than box_count x the model's points");
        std::vector<dlib::rectangle> rects;
        for (int32_t i = 0; i < box_count; ++i) rects.push_back(dlib_rectangle(boxes[i]));
        const dlib::cv_image<dlib::bgr_pixel> pixels(image->bgr);
        std::vector<std::vector<dlib::point>> shapes(rects.size());
        // Each face reads only the shared, read-only model and image, and writes its own slot.
        std::exception_ptr failure;
        std::mutex failure_mutex;
        auto place = [&](const cv::Range &range) {
            for (int i = range.start; i < range.end; ++i) {
                try {
                    if (predictor->reference) {
                        const dlib::full_object_detection shape = (*predictor->reference)(pixels, rects[size_t(i)]);
                        std::vector<dlib::point> &parts = shapes[size_t(i)];
                        for (unsigned long k = 0; k < shape.num_parts(); ++k) parts.push_back(shape.part(k));
                    } else {
                        shapes[size_t(i)] = predictor->place(pixels, rects[size_t(i)]);
                    }
                } catch (...) {
                    std::lock_guard<std::mutex> lock(failure_mutex);
                    failure = std::current_exception();
                }
            }
        };
        if (rects.size() > 1) {
            cv::parallel_for_(cv::Range(0, int(rects.size())), place);
        } else {
            place(cv::Range(0, int(rects.size())));
        }
        if (failure) std::rethrow_exception(failure);
        for (size_t i = 0; i < shapes.size(); ++i)
            for (size_t k = 0; k < parts; ++k)
                out[i * parts + k] = {float(shapes[i][k].x()), float(shapes[i][k].y())};
    });
}

#pragma GCC visibility pop

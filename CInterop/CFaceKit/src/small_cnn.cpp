// Planning and running a small network: each ONNX node becomes a step over numbered tensors,
// a Relu that is its convolution's only consumer is folded into it, and the convolutions run
// as a register-blocked product (1x1, or im2col for other kernels) or a direct depthwise 3x3.
// The kernels are compiled twice, for AVX2 with FMA and for the baseline, and chosen once; on
// other architectures (arm64) only the baseline is built, in the architecture's own vectors.
#include "small_cnn.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

// The AVX2 build of the kernels exists on x86 only; FK_PORTABLE_KERNELS leaves it out there too.
#if (defined(__x86_64__) || defined(__i386__)) && !defined(FK_PORTABLE_KERNELS)
#define FK_X86_KERNELS 1
#else
#define FK_X86_KERNELS 0
#endif

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk::cnn {

enum class Op { Conv, Relu, MaxPool, Resize, Add, Transpose, Reshape, Sigmoid };

struct Network::Step {
    Op op;
    std::vector<int> inputs;
    int output = -1;
    std::string name;
    // Conv
    // Each group's weights as pack_rows orders them, which for a group of one output channel
    // (a depthwise layer's) is the file's [out, in / groups, kernel_h, kernel_w] order; [out].
    std::vector<float> weights, bias;
    int out_channels = 0, groups = 1, kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
    int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
    bool relu = false;
    // MaxPool: kernel and stride above; Resize: integer scales
    int scale_h = 1, scale_w = 1;
    // Transpose, Reshape
    std::vector<int64_t> shape;
};

namespace {

// ---- kernels ---------------------------------------------------------------------------

typedef float v8 __attribute__((vector_size(32)));

// By reference: a vector passed by value would change the baseline build's calling convention.
[[gnu::always_inline]] inline void load8(v8 &v, const float *p) { std::memcpy(&v, p, sizeof v); }
[[gnu::always_inline]] inline void store8(float *p, const v8 &v) { std::memcpy(p, &v, sizeof v); }
/// Each lane clamped at zero (__builtin_elementwise_max is clang's; GCC takes the comparison).
[[gnu::always_inline]] inline void relu8(v8 &v) {
#if defined(__clang__)
    v = __builtin_elementwise_max(v, v8{});
#else
    v = v > v8{} ? v : v8{};
#endif
}

constexpr int kStrip = 16;  // columns of X a product block covers: two AVX vectors
constexpr int kChunkColumns = 512;  // output pixels a piece of a convolution covers
constexpr double kParallelWork = 1e6;  // multiply-adds below which a layer runs on the calling thread

/// How many rows the next block of a product takes: six while they last (twelve accumulators
/// and the two columns' vectors fill the sixteen AVX registers), then four, then one at a time.
int block_rows(int rows_left) { return rows_left >= 6 ? 6 : rows_left >= 4 ? 4 : 1; }

/// The weights of one product, A (rows x depth, row-major), in the order the blocks read them:
/// for each block, depth groups of its rows' weights.
std::vector<float> pack_rows(const float *a, int rows, int depth) {
    std::vector<float> packed;
    packed.reserve(size_t(rows) * depth);
    for (int row = 0; row < rows;) {
        const int count = block_rows(rows - row);
        for (int k = 0; k < depth; ++k)
            for (int r = 0; r < count; ++r) packed.push_back(a[size_t(row + r) * depth + k]);
        row += count;
    }
    return packed;
}

/// R rows of C = A X + bias over one strip: `a` the rows' packed weights, `strip` depth x 16,
/// written to `c` (rows `stride` apart) when the strip is whole, else to `partial`.
template <int R>
[[gnu::always_inline]] inline void product_block(const float *a, int depth, const float *strip, const float *bias,
                                                 bool relu, float *c, size_t stride, int width) {
    v8 sums[R][2];
    for (int r = 0; r < R; ++r) sums[r][0] = sums[r][1] = bias[r] + v8{};
    for (int k = 0; k < depth; ++k) {
        v8 low, high;
        load8(low, strip + kStrip * k);
        load8(high, strip + kStrip * k + 8);
        for (int r = 0; r < R; ++r) {
            const float weight = a[R * k + r];
            sums[r][0] += weight * low;
            sums[r][1] += weight * high;
        }
    }
    for (int r = 0; r < R; ++r) {
        if (relu) {
            relu8(sums[r][0]);
            relu8(sums[r][1]);
        }
        if (width == kStrip) {
            store8(c + r * stride, sums[r][0]);
            store8(c + r * stride + 8, sums[r][1]);
        } else {
            float whole[kStrip];
            store8(whole, sums[r][0]);
            store8(whole + 8, sums[r][1]);
            for (int j = 0; j < width; ++j) c[r * stride + j] = whole[j];
        }
    }
}

/// C = A X + bias (optionally clamped at zero), A packed by pack_rows, the rows of X and C
/// x_stride and c_stride apart. X is copied sixteen
/// columns at a time into `strip` (depth x 16): its rows lie a whole image row apart, and at
/// such strides they fall into a few cache sets and evict each other.
[[gnu::always_inline]] inline void product_body(const float *a, int rows, int depth, const float *x,
                                                size_t x_stride, int columns, const float *bias, float *c,
                                                size_t c_stride, bool relu, float *strip) {
    for (int column = 0; column < columns; column += kStrip) {
        const int width = std::min(kStrip, columns - column);
        for (int k = 0; k < depth; ++k) {
            float *line = strip + kStrip * k;
            const float *from = x + k * x_stride + column;
            // The rows of X are too many streams for the hardware prefetcher to follow.
            __builtin_prefetch(from + 4 * kStrip);
            if (width == kStrip) {
                v8 low, high;
                load8(low, from);
                load8(high, from + 8);
                store8(line, low);
                store8(line + 8, high);
            } else {
                for (int j = 0; j < kStrip; ++j) line[j] = j < width ? from[j] : 0.0f;
            }
        }
        for (int row = 0; row < rows;) {
            const int count = block_rows(rows - row);
            const float *weights = a + size_t(row) * depth;
            float *out = c + row * c_stride + column;
            if (count == 6) product_block<6>(weights, depth, strip, bias + row, relu, out, c_stride, width);
            else if (count == 4) product_block<4>(weights, depth, strip, bias + row, relu, out, c_stride, width);
            else product_block<1>(weights, depth, strip, bias + row, relu, out, c_stride, width);
            row += count;
        }
    }
}

/// One plane of 2x2 max pooling with stride 2.
[[gnu::always_inline]] inline void max_pool_2x2_body(const float *in, int height, int width, float *out) {
    const int out_h = height / 2, out_w = width / 2;
    for (int y = 0; y < out_h; ++y) {
        const float *__restrict top = in + size_t(2 * y) * width;
        const float *__restrict bottom = top + width;
        float *__restrict o = out + size_t(y) * out_w;
        for (int x = 0; x < out_w; ++x)
            o[x] = std::max(std::max(top[2 * x], top[2 * x + 1]), std::max(bottom[2 * x], bottom[2 * x + 1]));
    }
}

/// One output of a 3x3 depthwise convolution at column x of a row (`rows`: the input rows above,
/// at and below it), a tap at a time, the taps outside the row left out. `Fused`: each product
/// added in one rounding where the CPU has fused multiply-adds (the compiler contracts
/// `sum += w * p`); else rounded before it is added. The first column was always summed the
/// first way and the other single columns the second: they came from a lambda the compiler kept
/// out of line and built without FMA (a call and a vzeroupper per row; inline, YuNet's pass is
/// about 7% faster). Both ways are kept, so the outputs stay the same to the bit
/// (scripts/benchmark-native yunet).
template <bool Fused>
[[gnu::always_inline]] inline float depthwise_edge(const float *const rows[3], int width, const float *w, float bias,
                                                   bool relu, int x) {
    float sum = bias;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if (x + dx < 0 || x + dx >= width) continue;
            if (Fused) {
                sum += w[3 * dy + dx + 1] * rows[dy][x + dx];
            } else {
                const float product = w[3 * dy + dx + 1] * rows[dy][x + dx];  // a statement of its own: not contracted
                sum += product;
            }
        }
    return relu ? std::max(sum, 0.0f) : sum;
}

/// One channel of a 3x3 convolution with stride 1 and padding 1: the border columns one by
/// one, the others eight at a time, the last eight overlapping the ones before where the width
/// is not a multiple of eight.
[[gnu::always_inline]] inline void depthwise_body(const float *in, int height, int width, const float *w, float bias,
                                                  bool relu, const float *zeros, float *out) {
    for (int y = 0; y < height; ++y) {
        const float *rows[3] = {y > 0 ? in + size_t(y - 1) * width : zeros, in + size_t(y) * width,
                                y + 1 < height ? in + size_t(y + 1) * width : zeros};
        float *o = out + size_t(y) * width;
        o[0] = depthwise_edge<true>(rows, width, w, bias, relu, 0);
        if (width > 1) o[width - 1] = depthwise_edge<false>(rows, width, w, bias, relu, width - 1);
        const int inner = width - 2;  // columns 1 ... width - 2
        if (inner < 8) {
            for (int x = 1; x + 1 < width; ++x) o[x] = depthwise_edge<false>(rows, width, w, bias, relu, x);
            continue;
        }
        for (int start = 1;; start += 8) {
            const int x = std::min(start, width - 1 - 8);
            v8 sum = bias + v8{};
            for (int dy = 0; dy < 3; ++dy) {
                v8 left, middle, right;
                load8(left, rows[dy] + x - 1);
                load8(middle, rows[dy] + x);
                load8(right, rows[dy] + x + 1);
                sum += w[3 * dy] * left + w[3 * dy + 1] * middle + w[3 * dy + 2] * right;
            }
            if (relu) relu8(sum);
            store8(o + x, sum);
            if (x == width - 1 - 8) break;
        }
    }
}

#if FK_X86_KERNELS
__attribute__((target("avx2,fma"))) void product_avx2(const float *a, int rows, int depth, const float *x,
                                                      size_t x_stride, int columns, const float *bias, float *c,
                                                      size_t c_stride, bool relu, float *strip) {
    product_body(a, rows, depth, x, x_stride, columns, bias, c, c_stride, relu, strip);
}
#endif

void product_baseline(const float *a, int rows, int depth, const float *x, size_t x_stride, int columns,
                      const float *bias, float *c, size_t c_stride, bool relu, float *strip) {
    product_body(a, rows, depth, x, x_stride, columns, bias, c, c_stride, relu, strip);
}

#if FK_X86_KERNELS
__attribute__((target("avx2,fma"))) void depthwise_avx2(const float *in, int height, int width, const float *w,
                                                        float bias, bool relu, const float *zeros, float *out) {
    depthwise_body(in, height, width, w, bias, relu, zeros, out);
}
#endif

void depthwise_baseline(const float *in, int height, int width, const float *w, float bias, bool relu,
                        const float *zeros, float *out) {
    depthwise_body(in, height, width, w, bias, relu, zeros, out);
}

#if FK_X86_KERNELS
__attribute__((target("avx2,fma"))) void max_pool_2x2_avx2(const float *in, int height, int width, float *out) {
    max_pool_2x2_body(in, height, width, out);
}
#endif

void max_pool_2x2_baseline(const float *in, int height, int width, float *out) {
    max_pool_2x2_body(in, height, width, out);
}

#if FK_X86_KERNELS
bool has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}
#endif

void product(const float *a, int rows, int depth, const float *x, size_t x_stride, int columns, const float *bias,
             float *c, size_t c_stride, bool relu, float *strip) {
#if FK_X86_KERNELS
    (has_avx2() ? product_avx2 : product_baseline)(a, rows, depth, x, x_stride, columns, bias, c, c_stride, relu,
                                                   strip);
#else
    product_baseline(a, rows, depth, x, x_stride, columns, bias, c, c_stride, relu, strip);
#endif
}

void depthwise(const float *in, int height, int width, const float *w, float bias, bool relu, const float *zeros,
               float *out) {
#if FK_X86_KERNELS
    (has_avx2() ? depthwise_avx2 : depthwise_baseline)(in, height, width, w, bias, relu, zeros, out);
#else
    depthwise_baseline(in, height, width, w, bias, relu, zeros, out);
#endif
}

void max_pool_2x2(const float *in, int height, int width, float *out) {
#if FK_X86_KERNELS
    (has_avx2() ? max_pool_2x2_avx2 : max_pool_2x2_baseline)(in, height, width, out);
#else
    max_pool_2x2_baseline(in, height, width, out);
#endif
}

/// Unfolds what output rows [first_row, end_row) see of one group's input channels into
/// columns, one row per (channel, ky, kx).
void im2col(const float *in, int channels, int height, int width, const Network::Step &s, int first_row,
            int end_row, int out_w, float *columns) {
    const size_t count = size_t(end_row - first_row) * out_w;
    for (int c = 0; c < channels; ++c)
        for (int ky = 0; ky < s.kernel_h; ++ky)
            for (int kx = 0; kx < s.kernel_w; ++kx) {
                float *row = columns + size_t((c * s.kernel_h + ky) * s.kernel_w + kx) * count;
                for (int oy = first_row; oy < end_row; ++oy) {
                    const int y = oy * s.stride_h + ky - s.pad_top;
                    float *o = row + size_t(oy - first_row) * out_w;
                    if (y < 0 || y >= height) {
                        std::fill(o, o + out_w, 0.0f);
                        continue;
                    }
                    const float *line = in + (size_t(c) * height + y) * width;
                    // Columns whose pixel lies inside the row: x = ox * stride + offset in [0, width).
                    const int offset = kx - s.pad_left;
                    const int first = std::min(out_w, offset >= 0 ? 0 : (-offset + s.stride_w - 1) / s.stride_w);
                    const int end = std::max(first, std::min(out_w, (width - offset + s.stride_w - 1) / s.stride_w));
                    std::fill(o, o + first, 0.0f);
                    const float *from = line + offset;
                    if (s.stride_w == 1)
                        std::memcpy(o + first, from + first, sizeof(float) * (end - first));
                    else if (s.stride_w == 2)  // YuNet's first layer: a constant stride vectorises
                        for (int ox = first; ox < end; ++ox) o[ox] = from[2 * ox];
                    else
                        for (int ox = first; ox < end; ++ox) o[ox] = from[ox * s.stride_w];
                    std::fill(o + end, o + out_w, 0.0f);
                }
            }
}

// ---- planning --------------------------------------------------------------------------

int as_int(int64_t v, const std::string &what) {
    if (v < 0 || v > 1 << 20) throw unsupported(what + " is out of range");
    return int(v);
}

const onnx::Initializer &initializer(const onnx::Model &model, const std::string &name, const std::string &node) {
    auto found = model.initializers.find(name);
    if (found == model.initializers.end())
        throw unsupported(node + ": input " + name + " must be a constant of the file");
    return found->second;
}

void resize(Tensor &t, std::vector<int> dims) {
    size_t count = 1;
    for (int d : dims) count *= size_t(d);
    t.dims = std::move(dims);
    t.data.resize(count);
}

void require_rank4(const Tensor &t, const std::string &node) {
    if (t.dims.size() != 4 || t.dims[0] != 1) throw unsupported(node + " needs a [1, C, H, W] input");
}

}  // namespace

Network::Network(const onnx::Model &model) {
    if (model.inputs.size() != 1) throw unsupported("the network must have exactly one input");
    auto index = [&](const std::string &name) {
        auto found = names_.find(name);
        if (found != names_.end()) return found->second;
        names_.emplace(name, int(tensors_.size()));
        tensors_.emplace_back();
        return int(tensors_.size()) - 1;
    };
    input_ = index(model.inputs[0]);
    for (const auto &node : model.nodes) {
        Step s;
        s.name = node.name.empty() ? node.op : node.name;
        if (node.outputs.size() != 1) throw unsupported(s.name + " must have one output");
        auto data_input = [&](size_t i) {
            if (i >= node.inputs.size() || names_.count(node.inputs[i]) == 0)
                throw unsupported(s.name + ": input " + std::to_string(i) + " is not computed before it");
            return names_.at(node.inputs[i]);
        };
        if (node.op == "Conv") {
            s.op = Op::Conv;
            s.inputs = {data_input(0)};
            const auto &w = initializer(model, node.inputs.at(1), s.name);
            if (w.dims.size() != 4) throw unsupported(s.name + ": only 2-D convolutions");
            s.out_channels = as_int(w.dims[0], s.name);
            s.kernel_h = as_int(w.dims[2], s.name);
            s.kernel_w = as_int(w.dims[3], s.name);
            s.bias = node.inputs.size() > 2 && !node.inputs[2].empty()
                         ? initializer(model, node.inputs[2], s.name).floats
                         : std::vector<float>(size_t(s.out_channels), 0.0f);
            if (int(s.bias.size()) != s.out_channels) throw unsupported(s.name + ": bias of the wrong size");
            s.groups = as_int(node.ints("group", {1}).at(0), s.name);
            const auto strides = node.ints("strides", {1, 1});
            const auto pads = node.ints("pads", {0, 0, 0, 0});
            const auto dilations = node.ints("dilations", {1, 1});
            const auto kernel = node.ints("kernel_shape", {w.dims[2], w.dims[3]});
            if (strides.size() != 2 || pads.size() != 4 || dilations != std::vector<int64_t>{1, 1} ||
                kernel != std::vector<int64_t>{w.dims[2], w.dims[3]} || !node.text("auto_pad").empty() ||
                s.groups < 1 || s.out_channels % s.groups != 0)
                throw unsupported(s.name + ": dilated, auto-padded or odd-grouped convolutions");
            s.stride_h = as_int(strides[0], s.name), s.stride_w = as_int(strides[1], s.name);
            s.pad_top = as_int(pads[0], s.name), s.pad_left = as_int(pads[1], s.name);
            s.pad_bottom = as_int(pads[2], s.name), s.pad_right = as_int(pads[3], s.name);
            if (s.stride_h < 1 || s.stride_w < 1) throw unsupported(s.name + ": stride below 1");
            const int group_out = s.out_channels / s.groups;
            const int depth = as_int(w.dims[1], s.name) * s.kernel_h * s.kernel_w;
            for (int g = 0; g < s.groups; ++g) {
                auto packed = pack_rows(w.floats.data() + size_t(g) * group_out * depth, group_out, depth);
                s.weights.insert(s.weights.end(), packed.begin(), packed.end());
            }
        } else if (node.op == "Relu" || node.op == "Sigmoid") {
            s.op = node.op == "Relu" ? Op::Relu : Op::Sigmoid;
            s.inputs = {data_input(0)};
        } else if (node.op == "MaxPool") {
            s.op = Op::MaxPool;
            s.inputs = {data_input(0)};
            const auto kernel = node.ints("kernel_shape");
            const auto strides = node.ints("strides", {1, 1});
            const auto pads = node.ints("pads", {0, 0, 0, 0});
            if (kernel.size() != 2 || strides.size() != 2 || pads != std::vector<int64_t>{0, 0, 0, 0} ||
                node.ints("ceil_mode", {0}).at(0) != 0 || !node.text("auto_pad").empty())
                throw unsupported(s.name + ": only unpadded max pooling");
            s.kernel_h = as_int(kernel[0], s.name), s.kernel_w = as_int(kernel[1], s.name);
            s.stride_h = as_int(strides[0], s.name), s.stride_w = as_int(strides[1], s.name);
            if (s.kernel_h < 1 || s.kernel_w < 1 || s.stride_h < 1 || s.stride_w < 1)
                throw unsupported(s.name + ": empty pooling window");
        } else if (node.op == "Resize") {
            s.op = Op::Resize;
            s.inputs = {data_input(0)};
            if (node.text("mode", "nearest") != "nearest" ||
                node.text("coordinate_transformation_mode", "half_pixel") != "asymmetric" ||
                node.text("nearest_mode", "round_prefer_floor") != "floor" || node.inputs.size() != 3)
                throw unsupported(s.name + ": only nearest, asymmetric, floor resizing by scales");
            const auto &scales = initializer(model, node.inputs[2], s.name).floats;
            if (scales.size() != 4 || scales[0] != 1 || scales[1] != 1 || scales[2] != std::floor(scales[2]) ||
                scales[3] != std::floor(scales[3]) || scales[2] < 1 || scales[3] < 1)
                throw unsupported(s.name + ": only whole-number spatial scales");
            s.scale_h = int(scales[2]), s.scale_w = int(scales[3]);
        } else if (node.op == "Add") {
            s.op = Op::Add;
            s.inputs = {data_input(0), data_input(1)};
        } else if (node.op == "Transpose") {
            s.op = Op::Transpose;
            s.inputs = {data_input(0)};
            s.shape = node.ints("perm");
            if (s.shape != std::vector<int64_t>{0, 2, 3, 1}) throw unsupported(s.name + ": only the NCHW to NHWC permutation");
        } else if (node.op == "Reshape") {
            s.op = Op::Reshape;
            s.inputs = {data_input(0)};
            s.shape = initializer(model, node.inputs.at(1), s.name).ints;
        } else {
            throw unsupported("operator " + node.op + " (" + s.name + ")");
        }
        s.output = index(node.outputs[0]);
        steps_.push_back(std::move(s));
    }
    // A Relu that is a convolution's only consumer becomes part of it, and its output the same tensor.
    std::vector<int> readers(tensors_.size(), 0);
    for (const auto &s : steps_)
        for (int i : s.inputs) ++readers[i];
    for (const auto &name : model.outputs) {
        auto found = names_.find(name);
        if (found == names_.end()) throw unsupported("output " + name + " is not computed");
        ++readers[found->second];
    }
    std::vector<Step> fused;
    for (auto &s : steps_) {
        if (s.op == Op::Relu && !fused.empty() && fused.back().op == Op::Conv && !fused.back().relu &&
            fused.back().output == s.inputs[0] && readers[s.inputs[0]] == 1) {
            fused.back().relu = true;
            fused.back().output = s.output;
            continue;
        }
        fused.push_back(std::move(s));
    }
    steps_ = std::move(fused);
}

Network::~Network() = default;
Network::Network(Network &&) noexcept = default;
Network &Network::operator=(Network &&) noexcept = default;

Tensor &Network::input(int channels, int height, int width) {
    Tensor &t = tensors_[input_];
    resize(t, {1, channels, height, width});
    return t;
}

const Tensor &Network::tensor(const std::string &name) const { return tensors_[names_.at(name)]; }

void Network::run() {
    for (const Step &s : steps_) {
        const Tensor &in = tensors_[s.inputs[0]];
        Tensor &out = tensors_[s.output];
        switch (s.op) {
        case Op::Conv: {
            require_rank4(in, s.name);
            const int channels = in.dims[1], height = in.dims[2], width = in.dims[3];
            const int group_in = channels / s.groups, group_out = s.out_channels / s.groups;
            if (channels % s.groups != 0 || size_t(group_in) * s.kernel_h * s.kernel_w * s.out_channels != s.weights.size())
                throw unsupported(s.name + ": weights do not fit the input's channels");
            const int out_h = (height + s.pad_top + s.pad_bottom - s.kernel_h) / s.stride_h + 1;
            const int out_w = (width + s.pad_left + s.pad_right - s.kernel_w) / s.stride_w + 1;
            if (out_h < 1 || out_w < 1) throw unsupported(s.name + ": input smaller than the kernel");
            resize(out, {1, s.out_channels, out_h, out_w});
            const size_t plane = size_t(out_h) * out_w;
            const bool depthwise_3x3 = group_in == 1 && group_out == 1 && s.kernel_h == 3 && s.kernel_w == 3 &&
                                       s.stride_h == 1 && s.stride_w == 1 && s.pad_top == 1 && s.pad_left == 1 &&
                                       s.pad_bottom == 1 && s.pad_right == 1;
            const bool pointwise = s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
                                   s.pad_top == 0 && s.pad_left == 0 && s.pad_bottom == 0 && s.pad_right == 0;
            const int depth = group_in * s.kernel_h * s.kernel_w;
            // Pieces of about kChunkColumns output pixels, shared among OpenCV's threads: whole
            // channels for a depthwise convolution; else column ranges of a 1x1 convolution, or
            // output rows of another, which a piece unfolds into columns that stay in cache.
            const int chunk_rows = std::max(1, kChunkColumns / out_w);
            const int chunks = depthwise_3x3 ? channels
                               : pointwise   ? int((plane + kChunkColumns - 1) / kChunkColumns)
                                             : (out_h + chunk_rows - 1) / chunk_rows;
            auto work = [&](const cv::Range &range) {
                thread_local std::vector<float> scratch, strip;
                if (depthwise_3x3) {
                    scratch.assign(size_t(width), 0.0f);  // the row above the first and below the last
                    for (int c = range.start; c < range.end; ++c)
                        depthwise(in.data.data() + c * plane, height, width, s.weights.data() + 9 * c, s.bias[c],
                                  s.relu, scratch.data(), out.data.data() + c * plane);
                    return;
                }
                if (strip.size() < size_t(depth) * kStrip) strip.resize(size_t(depth) * kStrip);
                for (int chunk = range.start; chunk < range.end; ++chunk) {
                    size_t first, count;
                    if (pointwise) {
                        first = size_t(chunk) * kChunkColumns;
                        count = std::min(plane - first, size_t(kChunkColumns));
                    } else {
                        const int row = chunk * chunk_rows, end = std::min(out_h, row + chunk_rows);
                        first = size_t(row) * out_w;
                        count = size_t(end - row) * out_w;
                        if (scratch.size() < depth * count) scratch.resize(depth * count);
                    }
                    for (int g = 0; g < s.groups; ++g) {
                        const float *group_input = in.data.data() + size_t(g) * group_in * height * width;
                        const float *columns = group_input + first;
                        size_t stride = plane;
                        if (!pointwise) {
                            im2col(group_input, group_in, height, width, s, int(first / out_w),
                                   int((first + count) / out_w), out_w, scratch.data());
                            columns = scratch.data();
                            stride = count;
                        }
                        product(s.weights.data() + size_t(g) * group_out * depth, group_out, depth, columns, stride,
                                int(count), s.bias.data() + size_t(g) * group_out,
                                out.data.data() + size_t(g) * group_out * plane + first, plane, s.relu, strip.data());
                    }
                }
            };
            // Small layers are not worth waking another thread for.
            const double work_size = double(plane) * s.out_channels * depth;
            if (work_size < kParallelWork || chunks == 1)
                work(cv::Range(0, chunks));
            else
                cv::parallel_for_(cv::Range(0, chunks), work, chunks);
            break;
        }
        case Op::Relu:
            resize(out, in.dims);
            for (size_t i = 0; i < in.total(); ++i) out.data[i] = std::max(in.data[i], 0.0f);
            break;
        case Op::Sigmoid:
            resize(out, in.dims);
            for (size_t i = 0; i < in.total(); ++i) out.data[i] = 1.0f / (1.0f + std::exp(-in.data[i]));
            break;
        case Op::MaxPool: {
            require_rank4(in, s.name);
            const int channels = in.dims[1], height = in.dims[2], width = in.dims[3];
            const int out_h = (height - s.kernel_h) / s.stride_h + 1, out_w = (width - s.kernel_w) / s.stride_w + 1;
            if (height < s.kernel_h || width < s.kernel_w) throw unsupported(s.name + ": input smaller than the window");
            resize(out, {1, channels, out_h, out_w});
            if (s.kernel_h == 2 && s.kernel_w == 2 && s.stride_h == 2 && s.stride_w == 2) {
                for (int c = 0; c < channels; ++c)
                    max_pool_2x2(in.data.data() + size_t(c) * height * width, height, width,
                                 out.data.data() + size_t(c) * out_h * out_w);
                break;
            }
            float *o = out.data.data();
            for (int c = 0; c < channels; ++c) {
                const float *p = in.data.data() + size_t(c) * height * width;
                for (int y = 0; y < out_h; ++y)
                    for (int x = 0; x < out_w; ++x) {
                        float m = -INFINITY;
                        for (int ky = 0; ky < s.kernel_h; ++ky)
                            for (int kx = 0; kx < s.kernel_w; ++kx)
                                m = std::max(m, p[size_t(y * s.stride_h + ky) * width + x * s.stride_w + kx]);
                        *o++ = m;
                    }
            }
            break;
        }
        case Op::Resize: {
            require_rank4(in, s.name);
            const int channels = in.dims[1], height = in.dims[2], width = in.dims[3];
            const int out_h = height * s.scale_h, out_w = width * s.scale_w;
            resize(out, {1, channels, out_h, out_w});
            // Each input row widened once, then copied for the other output rows it becomes
            // (a division per element took 3% of a YuNet pass).
            float *o = out.data.data();
            for (int c = 0; c < channels; ++c)
                for (int y = 0; y < height; ++y) {
                    const float *line = in.data.data() + (size_t(c) * height + y) * width;
                    float *first = o;
                    for (int x = 0; x < width; ++x)
                        for (int k = 0; k < s.scale_w; ++k) *o++ = line[x];
                    for (int k = 1; k < s.scale_h; ++k, o += out_w) std::memcpy(o, first, sizeof(float) * out_w);
                }
            break;
        }
        case Op::Add: {
            const Tensor &other = tensors_[s.inputs[1]];
            if (other.dims != in.dims) throw unsupported(s.name + ": only additions of equal shapes");
            resize(out, in.dims);
            for (size_t i = 0; i < in.total(); ++i) out.data[i] = in.data[i] + other.data[i];
            break;
        }
        case Op::Transpose: {
            require_rank4(in, s.name);
            const int channels = in.dims[1], plane = in.dims[2] * in.dims[3];
            resize(out, {1, in.dims[2], in.dims[3], channels});
            for (int c = 0; c < channels; ++c)
                for (int i = 0; i < plane; ++i) out.data[size_t(i) * channels + c] = in.data[size_t(c) * plane + i];
            break;
        }
        case Op::Reshape: {
            std::vector<int> dims;
            int inferred = -1;
            size_t known = 1;
            for (size_t i = 0; i < s.shape.size(); ++i) {
                int64_t d = s.shape[i];
                if (d == 0) {
                    if (i >= in.dims.size()) throw unsupported(s.name + ": copies a dimension the input lacks");
                    d = in.dims[i];
                }
                if (d == -1) {
                    if (inferred >= 0) throw unsupported(s.name + ": more than one inferred dimension");
                    inferred = int(i);
                    dims.push_back(1);
                    continue;
                }
                if (d < 0) throw unsupported(s.name + ": negative dimension");
                dims.push_back(int(d));
                known *= size_t(d);
            }
            if (known == 0 || in.total() % known != 0) throw unsupported(s.name + ": the shape does not fit");
            if (inferred >= 0) dims[inferred] = int(in.total() / known);
            else if (known != in.total()) throw unsupported(s.name + ": the shape does not fit");
            out.dims = dims;
            out.data = in.data;
            break;
        }
        }
    }
}

}  // namespace fk::cnn

#pragma GCC visibility pop

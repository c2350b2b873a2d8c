// Pyramidal Lucas-Kanade optical flow, bit for bit as OpenCV 4.6's SSE2 build computes it
// (modules/video/src/lkpyramid.cpp: calcOpticalFlowPyrLK and its LKTrackerInvoker).
//
// Why not OpenCV's own: its window sums are chains of dependent float additions, and with
// FaceKit's 15-pixel window its 8-wide vector loop leaves 7 of each row's 15 pixels to a scalar
// loop, so a point's 105 tail additions wait on each other's latency, one point after another
// (perf put 9% of a video run there). Here each point's sums are the same additions in the same
// order, but the points lie side by side in the lanes of arrays: the chains of 8 points advance
// together, limited by throughput instead of latency. The integer steps (interpolation with
// OpenCV's rounded weights, products) are exact, so they can be computed in any order; the
// windows 15 pixels wide have an AVX2 path for them, the others a plain one.
#pragma clang fp contract(off)  // a fused multiply-add rounds differently from OpenCV's mul and add

#include "lucas_kanade.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include <immintrin.h>

namespace fk {
namespace {

constexpr int weight_bits = 14;                 // OpenCV's W_BITS
constexpr float float_scale = 1.f / (1 << 20);  // OpenCV's FLT_SCALE
constexpr int lanes = 8;                        // points that go through each step together
constexpr float min_eigen_threshold = float(1e-4);  // calcOpticalFlowPyrLK's default, as it passes it on

/// Sums chains of floats from zero, each in element order, all the points' at once:
/// `values[(chain * length + element) * lanes + point]`, into `sums[chain * lanes + point]`.
template <int chains>
inline __attribute__((always_inline)) void sum_chains(const float *values, int length, float *sums) {
    float acc[chains][lanes] = {};
    for (int e = 0; e < length; ++e)
        for (int c = 0; c < chains; ++c) {
            const float *element = values + (size_t(c) * length + e) * lanes;
            for (int p = 0; p < lanes; ++p) acc[c][p] += element[p];
        }
    for (int c = 0; c < chains; ++c)
        for (int p = 0; p < lanes; ++p) sums[c * lanes + p] = acc[c][p];
}

/// The four bilinear weights of a position's fraction, as OpenCV rounds them.
struct Weights {
    int w00, w01, w10, w11;
    Weights(float a, float b) {
        w00 = cvRound((1.f - a) * (1.f - b) * (1 << weight_bits));
        w01 = cvRound(a * (1.f - b) * (1 << weight_bits));
        w10 = cvRound((1.f - a) * b * (1 << weight_bits));
        w11 = (1 << weight_bits) - w00 - w01 - w10;
    }
};

inline int descale(int x, int n) { return (x + (1 << (n - 1))) >> n; }

/// Where a point's values go: `values[(chain * length + element) * lanes + point]`.
struct Chains {
    float *values;
    int length;
    float &operator()(int chain, int element, int p) const {
        return values[(size_t(chain) * length + element) * lanes + size_t(p)];
    }
};

/// A point's window of the first image (Ival, 32 times the pixel) and of its derivatives (Ix, Iy
/// interleaved), as OpenCV keeps them, with rows `stride` values apart.
struct Window {
    int16_t *I, *dI;
    int stride;
};

/// Derivatives of a region of a level, (dx, dy) interleaved, `step` values from one row to the next.
struct Derivatives {
    const int16_t *data;
    ptrdiff_t step;
};

/// The Scharr derivatives cv::buildOpticalFlowPyramid would store for the `w` x `h` pixels from
/// (x0, y0) of level image I, into `out` (rows `stride` pixels apart): calcScharrDeriv's integer
/// sums, the image's edge reflected (reflect-101) as it does, and (0, 0) outside the image, its
/// constant border. Only the windows' pixels are made, instead of the whole level's.
void scharr(const cv::Mat &I, int x0, int y0, int w, int h, int16_t *out, int stride) {
    const int cols = I.cols, rows = I.rows;
    if (x0 >= 1 && y0 >= 1 && x0 + w < cols && y0 + h < rows) {  // no edge within reach
        for (int r = 0; r < h; ++r) {
            const uchar *a = I.ptr(y0 + r - 1) + x0 - 1, *b = I.ptr(y0 + r) + x0 - 1, *c = I.ptr(y0 + r + 1) + x0 - 1;
            int16_t v0[72], v1[72];
            for (int i = 0; i < w + 2; ++i) {
                v0[i] = int16_t((a[i] + c[i]) * 3 + b[i] * 10);
                v1[i] = int16_t(c[i] - a[i]);
            }
            int16_t *o = out + ptrdiff_t(r) * stride * 2;
            for (int i = 0; i < w; ++i) {
                o[2 * i] = int16_t(v0[i + 2] - v0[i]);
                o[2 * i + 1] = int16_t((v1[i] + v1[i + 2]) * 3 + v1[i + 1] * 10);
            }
        }
        return;
    }
    auto reflect = [](int i, int n) { return i < 0 ? (n > 1 ? 1 : 0) : i >= n ? (n > 1 ? n - 2 : 0) : i; };
    for (int r = 0; r < h; ++r) {
        const int y = y0 + r;
        int16_t *o = out + ptrdiff_t(r) * stride * 2;
        if (y < 0 || y >= rows) {
            std::fill(o, o + 2 * w, int16_t(0));
            continue;
        }
        const uchar *a = I.ptr(reflect(y - 1, rows)), *b = I.ptr(y), *c = I.ptr(reflect(y + 1, rows));
        auto v0 = [&](int x) { return (a[x] + c[x]) * 3 + b[x] * 10; };
        auto v1 = [&](int x) { return c[x] - a[x]; };
        for (int i = 0; i < w; ++i) {
            const int x = x0 + i;
            if (x < 0 || x >= cols) {
                o[2 * i] = o[2 * i + 1] = 0;
                continue;
            }
            const int xm = reflect(x - 1, cols), xp = reflect(x + 1, cols);
            o[2 * i] = int16_t(v0(xp) - v0(xm));
            o[2 * i + 1] = int16_t((v1(xm) + v1(xp)) * 3 + v1(x) * 10);
        }
    }
}

/// The window at (ix, iy) with weights `w`, and the elements of the sums of Ix Ix, Ix Iy and Iy Iy:
/// the vector part's lane k (chains k, 4 + k, 8 + k) takes pixel 8c + k then 8c + 4 + k of each
/// chunk c of 8 pixels, the scalar rest goes to tail chains 0, 1, 2 pixel by pixel.
void window_generic(const cv::Mat &I, Derivatives derivatives, int ix, int iy, const Weights &w, int width,
                    int height, int chunks, Window win, const Chains &lane, const Chains &tail, int p) {
    const size_t stepI = I.step;
    const ptrdiff_t dstep = derivatives.step;
    const int body = chunks * 8, tail_width = width - body;
    for (int y = 0; y < height; ++y) {
        const uchar *src = I.ptr() + ptrdiff_t(y + iy) * ptrdiff_t(stepI) + ix;
        const int16_t *dsrc = derivatives.data + y * dstep;
        int16_t *Iw = win.I + y * win.stride, *dIw = win.dI + y * win.stride * 2;
        int ixv[64], iyv[64];
        for (int x = 0; x < width; ++x) {
            Iw[x] = int16_t(descale(src[x] * w.w00 + src[x + 1] * w.w01 + src[x + stepI] * w.w10 +
                                        src[x + stepI + 1] * w.w11,
                                    weight_bits - 5));
            const int16_t *d = dsrc + 2 * x;
            ixv[x] = descale(d[0] * w.w00 + d[2] * w.w01 + d[dstep] * w.w10 + d[dstep + 2] * w.w11, weight_bits);
            iyv[x] = descale(d[1] * w.w00 + d[3] * w.w01 + d[dstep + 1] * w.w10 + d[dstep + 3] * w.w11, weight_bits);
            dIw[2 * x] = int16_t(ixv[x]);
            dIw[2 * x + 1] = int16_t(iyv[x]);
        }
        for (int c = 0; c < chunks; ++c)
            for (int h = 0; h < 2; ++h)
                for (int k = 0; k < 4; ++k) {
                    const int x = 8 * c + 4 * h + k, e = (y * chunks + c) * 2 + h;
                    lane(k, e, p) = float(ixv[x] * ixv[x]);
                    lane(4 + k, e, p) = float(ixv[x] * iyv[x]);
                    lane(8 + k, e, p) = float(iyv[x] * iyv[x]);
                }
        for (int x = body; x < width; ++x) {
            const int e = y * tail_width + (x - body);
            tail(0, e, p) = float(ixv[x] * ixv[x]);
            tail(1, e, p) = float(ixv[x] * iyv[x]);
            tail(2, e, p) = float(iyv[x] * iyv[x]);
        }
    }
}

/// The elements of b1 and b2 for the second image's window at (ix, iy), weights `w`: in the vector
/// part, qb0 = (b1, b2 of pixels 0 and 4; b1, b2 of pixels 1 and 5) and qb1 the same of pixels 2
/// and 6, 3 and 7 (chains 0-3 and 4-7), each a sum of two products converted once; the scalar
/// rest goes to tail chains 0 and 1.
void step_generic(const cv::Mat &J, int ix, int iy, const Weights &w, int width, int height, int chunks,
                  Window win, const Chains &lane, const Chains &tail, int p) {
    const size_t stepJ = J.step;
    const int body = chunks * 8, tail_width = width - body;
    for (int y = 0; y < height; ++y) {
        const uchar *Jp = J.ptr() + ptrdiff_t(y + iy) * ptrdiff_t(stepJ) + ix;
        const int16_t *Iw = win.I + y * win.stride, *dI = win.dI + y * win.stride * 2;
        int diff[64];
        for (int x = 0; x < width; ++x)
            diff[x] = int16_t(descale(Jp[x] * w.w00 + Jp[x + 1] * w.w01 + Jp[x + stepJ] * w.w10 +
                                          Jp[x + stepJ + 1] * w.w11,
                                      weight_bits - 5)) -
                      Iw[x];
        for (int c = 0; c < chunks; ++c)
            for (int q = 0; q < 2; ++q)
                for (int r = 0; r < 2; ++r) {
                    const int a = 8 * c + 2 * q + r, b = a + 4, e = y * chunks + c;
                    lane(4 * q + 2 * r, e, p) = float(diff[a] * dI[2 * a] + diff[b] * dI[2 * b]);
                    lane(4 * q + 2 * r + 1, e, p) = float(diff[a] * dI[2 * a + 1] + diff[b] * dI[2 * b + 1]);
                }
        for (int x = body; x < width; ++x) {
            const int e = y * tail_width + (x - body);
            tail(0, e, p) = float(diff[x] * dI[2 * x]);
            tail(1, e, p) = float(diff[x] * dI[2 * x + 1]);
        }
    }
}

bool has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

/// Bilinear interpolation of 16 pixels of two 8-bit rows, (v + 256) >> 9 as OpenCV's vector code
/// has it (the sixteenth pixel meaningless).
__attribute__((target("avx2"))) inline __m256i interpolate_row(const uchar *row, size_t step, __m256i w0,
                                                                __m256i w1) {
    const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row));
    const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + step));
    const __m256i a0 = _mm256_cvtepu8_epi16(r0), a1 = _mm256_cvtepu8_epi16(_mm_srli_si128(r0, 1));
    const __m256i b0 = _mm256_cvtepu8_epi16(r1), b1 = _mm256_cvtepu8_epi16(_mm_srli_si128(r1, 1));
    const __m256i delta = _mm256_set1_epi32(1 << (weight_bits - 5 - 1));
    __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(a0, a1), w0),
                                  _mm256_madd_epi16(_mm256_unpacklo_epi16(b0, b1), w1));
    __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(a0, a1), w0),
                                  _mm256_madd_epi16(_mm256_unpackhi_epi16(b0, b1), w1));
    lo = _mm256_srai_epi32(_mm256_add_epi32(lo, delta), weight_bits - 5);
    hi = _mm256_srai_epi32(_mm256_add_epi32(hi, delta), weight_bits - 5);
    return _mm256_packs_epi32(lo, hi);  // per 128-bit half: pixels 0-3 then 4-7, so in order
}

/// Bilinear interpolation of 8 pixels of interleaved derivatives: d0, d1 the row's pixels x and
/// x + 1, e0, e1 the next row's; (v + 8192) >> 14, interleaved again.
__attribute__((target("avx2"))) inline __m256i interpolate_derivatives(__m256i d0, __m256i d1, __m256i e0,
                                                                        __m256i e1, __m256i w0, __m256i w1) {
    const __m256i delta = _mm256_set1_epi32(1 << (weight_bits - 1));
    __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(d0, d1), w0),
                                  _mm256_madd_epi16(_mm256_unpacklo_epi16(e0, e1), w1));
    __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(d0, d1), w0),
                                  _mm256_madd_epi16(_mm256_unpackhi_epi16(e0, e1), w1));
    lo = _mm256_srai_epi32(_mm256_add_epi32(lo, delta), weight_bits);
    hi = _mm256_srai_epi32(_mm256_add_epi32(hi, delta), weight_bits);
    return _mm256_packs_epi32(lo, hi);
}

__attribute__((target("avx2"))) inline __m256i weight_pairs(int first, int second) {
    return _mm256_set1_epi32(int((uint32_t(uint16_t(second)) << 16) | uint16_t(first)));
}

/// 16 pixels of a row, widened.
__attribute__((target("avx2"))) inline __m256i widened(const uchar *row) {
    return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(row)));
}

/// scharr for 16 x 16 pixels clear of the image's edge, a row at a time: pixels i, i + 1 and
/// i + 2 of the three rows around it, from 16-byte loads (the last byte read is x0 + 16).
__attribute__((target("avx2"))) void scharr_16(const cv::Mat &I, int x0, int y0, int16_t *out, int stride) {
    const __m256i three = _mm256_set1_epi16(3), ten = _mm256_set1_epi16(10);
    for (int r = 0; r < 16; ++r) {
        const uchar *a = I.ptr(y0 + r - 1) + x0 - 1, *b = I.ptr(y0 + r) + x0 - 1, *c = I.ptr(y0 + r + 1) + x0 - 1;
        const __m256i a0 = widened(a), a1 = widened(a + 1), a2 = widened(a + 2);
        const __m256i c0 = widened(c), c1 = widened(c + 1), c2 = widened(c + 2);
        const __m256i v0_left = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_add_epi16(a0, c0), three),
                                                 _mm256_mullo_epi16(widened(b), ten));
        const __m256i v0_right = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_add_epi16(a2, c2), three),
                                                  _mm256_mullo_epi16(widened(b + 2), ten));
        const __m256i dx = _mm256_sub_epi16(v0_right, v0_left);
        const __m256i dy = _mm256_add_epi16(
            _mm256_mullo_epi16(_mm256_add_epi16(_mm256_sub_epi16(c0, a0), _mm256_sub_epi16(c2, a2)), three),
            _mm256_mullo_epi16(_mm256_sub_epi16(c1, a1), ten));
        const __m256i lo = _mm256_unpacklo_epi16(dx, dy), hi = _mm256_unpackhi_epi16(dx, dy);  // by 128-bit half
        int16_t *o = out + ptrdiff_t(r) * stride * 2;
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(o), _mm256_permute2x128_si256(lo, hi, 0x20));
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 16), _mm256_permute2x128_si256(lo, hi, 0x31));
    }
}

/// 8 pixels of interleaved derivatives.
__attribute__((target("avx2"))) inline __m256i load8(const int16_t *at) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(at));
}

/// window_generic for a window 15 pixels wide (FaceKit's): each row one vector of 16 pixels. Reads
/// no image pixel OpenCV's loop does not (x + 15 at most); the derivatives' rows hold 17 pixels,
/// the seventeenth only ever in a lane that is dropped.
__attribute__((target("avx2"))) void window_15(const cv::Mat &I, Derivatives derivatives, int ix, int iy,
                                               const Weights &w, int height, Window win, const Chains &lane,
                                               const Chains &tail, int p) {
    const size_t stepI = I.step;
    const ptrdiff_t dstep = derivatives.step;
    const __m256i w0 = weight_pairs(w.w00, w.w01), w1 = weight_pairs(w.w10, w.w11);
    for (int y = 0; y < height; ++y) {
        const uchar *src = I.ptr() + ptrdiff_t(y + iy) * ptrdiff_t(stepI) + ix;
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(win.I + y * win.stride), interpolate_row(src, stepI, w0, w1));
        const int16_t *d = derivatives.data + y * dstep;
        const __m256i D0 = interpolate_derivatives(load8(d), load8(d + 2), load8(d + dstep), load8(d + dstep + 2), w0, w1);
        const __m256i D1 = interpolate_derivatives(load8(d + 16), load8(d + 18), load8(d + dstep + 16),
                                                   load8(d + dstep + 18), w0, w1);
        int16_t *dIw = win.dI + y * win.stride * 2;
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dIw), D0);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dIw + 16), D1);
        alignas(32) float xx[16], xy[16], yy[16];
        for (int h = 0; h < 2; ++h) {
            const __m256i D = h == 0 ? D0 : D1;
            const __m256 fx = _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(D, 16), 16));
            const __m256 fy = _mm256_cvtepi32_ps(_mm256_srai_epi32(D, 16));
            _mm256_store_ps(xx + 8 * h, _mm256_mul_ps(fx, fx));
            _mm256_store_ps(xy + 8 * h, _mm256_mul_ps(fx, fy));
            _mm256_store_ps(yy + 8 * h, _mm256_mul_ps(fy, fy));
        }
        for (int h = 0; h < 2; ++h)
            for (int k = 0; k < 4; ++k) {
                const int x = 4 * h + k, e = y * 2 + h;
                lane(k, e, p) = xx[x];
                lane(4 + k, e, p) = xy[x];
                lane(8 + k, e, p) = yy[x];
            }
        for (int x = 8; x < 15; ++x) {
            const int e = y * 7 + (x - 8);
            tail(0, e, p) = xx[x];
            tail(1, e, p) = xy[x];
            tail(2, e, p) = yy[x];
        }
    }
}

/// step_generic for a window 15 pixels wide.
__attribute__((target("avx2"))) void step_15(const cv::Mat &J, int ix, int iy, const Weights &w, int height,
                                             Window win, const Chains &lane, const Chains &tail, int p) {
    const size_t stepJ = J.step;
    const __m256i w0 = weight_pairs(w.w00, w.w01), w1 = weight_pairs(w.w10, w.w11);
    for (int y = 0; y < height; ++y) {
        const uchar *Jp = J.ptr() + ptrdiff_t(y + iy) * ptrdiff_t(stepJ) + ix;
        const __m256i diff = _mm256_sub_epi16(interpolate_row(Jp, stepJ, w0, w1),
                                              _mm256_loadu_si256(reinterpret_cast<const __m256i *>(win.I + y * win.stride)));
        const int16_t *dI = win.dI + y * win.stride * 2;
        // diff * Ix and diff * Iy of each pixel, exact in 32 bits: (Ix, Iy) . (diff, 0) and . (0, diff).
        __m256i px[2], py[2];
        for (int h = 0; h < 2; ++h) {
            const __m256i D = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(dI + 16 * h));
            const __m256i z = _mm256_cvtepu16_epi32(h == 0 ? _mm256_castsi256_si128(diff) : _mm256_extracti128_si256(diff, 1));
            px[h] = _mm256_madd_epi16(D, z);
            py[h] = _mm256_madd_epi16(D, _mm256_slli_epi32(z, 16));
        }
        // The vector part: pixels k and k + 4 summed in 32 bits, then converted, as pmaddwd does.
        const __m128i sx = _mm_add_epi32(_mm256_castsi256_si128(px[0]), _mm256_extracti128_si256(px[0], 1));
        const __m128i sy = _mm_add_epi32(_mm256_castsi256_si128(py[0]), _mm256_extracti128_si256(py[0], 1));
        alignas(32) float q[8], tx[8], ty[8];
        _mm_store_ps(q, _mm_cvtepi32_ps(_mm_unpacklo_epi32(sx, sy)));
        _mm_store_ps(q + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi32(sx, sy)));
        _mm256_store_ps(tx, _mm256_cvtepi32_ps(px[1]));
        _mm256_store_ps(ty, _mm256_cvtepi32_ps(py[1]));
        for (int c = 0; c < 8; ++c) lane(c, y, p) = q[c];
        for (int x = 0; x < 7; ++x) {
            tail(0, y * 7 + x, p) = tx[x];
            tail(1, y * 7 + x, p) = ty[x];
        }
    }
}

/// One batch of up to `lanes` points on one pyramid level: LKTrackerInvoker's loop body, point by
/// point where it decides, side by side where it sums.
struct Level {
    const cv::Mat &I, &J;
    int width, height, chunks, body, tail_width;  // the window; its 8-pixel vector chunks; the scalar rest
    int level, max_level, max_count;
    double epsilon;
    std::vector<int16_t> &window_I, &window_dI, &derivatives;
    std::vector<float> &values, &sums;

    Window window(int p) {
        const int stride = (width + 15) / 16 * 16;
        return {window_I.data() + size_t(p) * stride * height, window_dI.data() + size_t(p) * stride * height * 2,
                stride};
    }

    void run(const cv::Point2f *from, cv::Point2f *to, uchar *status, int count) {
        const cv::Point2f half((width - 1) * 0.5f, (height - 1) * 0.5f);
        const bool fast = width == 15 && has_avx2();
        cv::Point2f next[lanes], previous_delta[lanes];
        float A11[lanes], A12[lanes], A22[lanes], D[lanes];
        bool active[lanes] = {};
        int iterations[lanes] = {};

        // The window of the first image and the matrix of its derivatives.
        const int tail_length = height * tail_width;
        const Chains a_lane{values.data(), height * chunks * 2};
        const Chains a_tail{values.data() + size_t(12) * a_lane.length * lanes, tail_length};
        for (int p = 0; p < count; ++p) {
            cv::Point2f previous = from[p] * (float)(1. / (1 << level));
            next[p] = level == max_level ? previous : to[p] * 2.f;
            to[p] = next[p];
            previous -= half;
            const int ix = cvFloor(previous.x), iy = cvFloor(previous.y);
            if (ix < -width || ix >= I.cols || iy < -height || iy >= I.rows) {
                if (level == 0) status[p] = false;
                continue;
            }
            active[p] = true;
            const Weights w(previous.x - ix, previous.y - iy);
            // The bilinear reads take pixels x and x + 1 of rows y and y + 1 of the window.
            const int stride = width + 2;
            if (fast && height == 15 && ix >= 1 && iy >= 1 && ix + 16 < I.cols && iy + 16 < I.rows)
                scharr_16(I, ix, iy, derivatives.data(), stride);
            else
                scharr(I, ix, iy, width + 1, height + 1, derivatives.data(), stride);
            const Derivatives d{derivatives.data(), 2 * stride};
            if (fast)
                window_15(I, d, ix, iy, w, height, window(p), a_lane, a_tail, p);
            else
                window_generic(I, d, ix, iy, w, width, height, chunks, window(p), a_lane, a_tail, p);
        }
        float *lane_sums = sums.data(), *tail_sums = sums.data() + 12 * lanes;
        sum_chains<12>(a_lane.values, a_lane.length, lane_sums);
        sum_chains<3>(a_tail.values, tail_length, tail_sums);
        auto reduce = [&](int first_chain, int p) {  // v_reduce_sum: (l0 + l2) + (l1 + l3)
            const float *l = lane_sums + first_chain * lanes + p;
            return (l[0] + l[2 * lanes]) + (l[lanes] + l[3 * lanes]);
        };
        for (int p = 0; p < count; ++p) {
            if (!active[p]) continue;
            A11[p] = (tail_sums[p] + reduce(0, p)) * float_scale;
            A12[p] = (tail_sums[lanes + p] + reduce(4, p)) * float_scale;
            A22[p] = (tail_sums[2 * lanes + p] + reduce(8, p)) * float_scale;
            const float d = A11[p] * A22[p] - A12[p] * A12[p];
            const float min_eigen =
                (A22[p] + A11[p] - std::sqrt((A11[p] - A22[p]) * (A11[p] - A22[p]) + 4.f * A12[p] * A12[p])) /
                (2 * width * height);
            if (min_eigen < min_eigen_threshold || d < FLT_EPSILON) {
                if (level == 0) status[p] = false;
                active[p] = false;
                continue;
            }
            D[p] = 1.f / d;
            next[p] -= half;
            previous_delta[p] = cv::Point2f();
            if (max_count <= 0) active[p] = false;
        }

        // The iterations, a step of each active point at a time.
        const Chains b_lane{values.data(), height * chunks};
        const Chains b_tail{values.data() + size_t(8) * b_lane.length * lanes, tail_length};
        for (;;) {
            bool stepped[lanes] = {};
            bool any = false;
            for (int p = 0; p < count; ++p) {
                if (!active[p]) continue;
                const int ix = cvFloor(next[p].x), iy = cvFloor(next[p].y);
                if (ix < -width || ix >= J.cols || iy < -height || iy >= J.rows) {
                    if (level == 0) status[p] = false;
                    active[p] = false;
                    continue;
                }
                stepped[p] = any = true;
                const Weights w(next[p].x - ix, next[p].y - iy);
                if (fast)
                    step_15(J, ix, iy, w, height, window(p), b_lane, b_tail, p);
                else
                    step_generic(J, ix, iy, w, width, height, chunks, window(p), b_lane, b_tail, p);
            }
            if (!any) break;
            sum_chains<8>(b_lane.values, b_lane.length, lane_sums);
            sum_chains<2>(b_tail.values, tail_length, tail_sums);
            for (int p = 0; p < count; ++p) {
                if (!stepped[p]) continue;
                float s[4];
                for (int k = 0; k < 4; ++k) s[k] = lane_sums[k * lanes + p] + lane_sums[(4 + k) * lanes + p];
                const float b1 = (tail_sums[p] + (s[0] + s[2])) * float_scale;
                const float b2 = (tail_sums[lanes + p] + (s[1] + s[3])) * float_scale;
                const cv::Point2f delta((float)((A12[p] * b2 - A22[p] * b1) * D[p]),
                                        (float)((A12[p] * b1 - A11[p] * b2) * D[p]));
                next[p] += delta;
                to[p] = next[p] + half;
                if (delta.ddot(delta) <= epsilon) {
                    active[p] = false;
                    continue;
                }
                if (iterations[p] > 0 && std::abs(delta.x + previous_delta[p].x) < 0.01 &&
                    std::abs(delta.y + previous_delta[p].y) < 0.01) {
                    to[p] -= delta * 0.5f;
                    active[p] = false;
                    continue;
                }
                previous_delta[p] = delta;
                if (++iterations[p] >= max_count) active[p] = false;
            }
        }
    }
};

}  // namespace

void follow_lucas_kanade(const std::vector<cv::Mat> &previous, const std::vector<cv::Mat> &next,
                         const std::vector<cv::Point2f> &from, std::vector<cv::Point2f> &to,
                         std::vector<uchar> &status, cv::Size window, int max_level, cv::TermCriteria criteria) {
    CV_Assert(!previous.empty() && !next.empty() && previous[0].type() == CV_8UC1 && next[0].type() == CV_8UC1);
    CV_Assert(window.width > 2 && window.height > 2 && window.width <= 64 && max_level >= 0);
    const int levels = std::min({max_level, int(previous.size()) - 1, int(next.size()) - 1});
    const int max_count = (criteria.type & cv::TermCriteria::COUNT) ? std::min(std::max(criteria.maxCount, 0), 100) : 30;
    double epsilon = (criteria.type & cv::TermCriteria::EPS) ? std::min(std::max(criteria.epsilon, 0.), 10.) : 0.01;
    epsilon *= epsilon;

    const int n = int(from.size());
    to.resize(size_t(n));
    status.assign(size_t(n), 1);
    const int width = window.width, height = window.height;
    const int chunks = width >= 8 ? (width - 8) / 8 + 1 : 0;
    const int body = chunks * 8, tail = width - body, stride = (width + 15) / 16 * 16;
    thread_local std::vector<int16_t> window_I, window_dI, derivatives;
    thread_local std::vector<float> values, sums;
    derivatives.resize(size_t(height + 1) * (width + 2) * 2);  // zeros where never written
    window_I.resize(size_t(lanes) * stride * height);
    window_dI.resize(size_t(lanes) * stride * height * 2);
    values.resize(size_t(lanes) * (12 * height * chunks * 2 + 3 * height * tail));
    sums.resize(size_t(lanes) * 15);
    for (int start = 0; start < n; start += lanes) {
        const int count = std::min(lanes, n - start);
        for (int level = levels; level >= 0; --level) {
            CV_Assert(previous[level].size() == next[level].size());
            Level step{previous[level], next[level], width, height, chunks, body, tail, level, levels, max_count,
                       epsilon, window_I, window_dI, derivatives, values, sums};
            step.run(from.data() + start, to.data() + start, status.data() + start, count);
        }
    }
}

}  // namespace fk

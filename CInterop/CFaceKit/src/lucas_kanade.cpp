// Pyramidal Lucas-Kanade optical flow, bit for bit as OpenCV 4.6's SSE2 build computes it
// (modules/video/src/lkpyramid.cpp: calcOpticalFlowPyrLK and its LKTrackerInvoker).
//
// Why not OpenCV's own: its window sums are chains of dependent float additions, and with
// FaceKit's 15-pixel window its 8-wide vector loop leaves 7 of each row's 15 pixels to a scalar
// loop, so a point's 105 tail additions wait on each other's latency, one point after another
// (perf put 9% of a video run there). Here each point's sums are the same additions in the same
// order, but 8 points go through each step together: each leaves its values for the sums as
// whole vectors, and the sums take them 8 points at a time, transposed, so that the 8 chains
// advance side by side in the lanes of one register. The integer steps (interpolation with
// OpenCV's rounded weights, products, the Scharr derivatives) are exact, so they can be computed
// in any order: AVX2 for the 15-pixel windows; other windows, a processor without AVX2, or
// another architecture (arm64: the AVX2 code is compiled on x86 only, FK_X86_KERNELS) take a
// plain path that sums each point on its own, the same additions again.
#pragma clang fp contract(off)  // a fused multiply-add rounds differently from OpenCV's mul and add
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")  // GCC contracts across statements by default in C++
#endif

#include "lucas_kanade.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

// The AVX2 paths exist on x86 only; FK_PORTABLE_KERNELS leaves them out there too (to check the
// plain path against them).
#if (defined(__x86_64__) || defined(__i386__)) && !defined(FK_PORTABLE_KERNELS)
#define FK_X86_KERNELS 1
#include <immintrin.h>
#else
#define FK_X86_KERNELS 0
#endif

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {
namespace {

constexpr int weight_bits = 14;                 // OpenCV's W_BITS
constexpr float float_scale = 1.f / (1 << 20);  // OpenCV's FLT_SCALE
constexpr int lanes = 8;                        // points that go through each step together
constexpr float min_eigen_threshold = float(1e-4);  // calcOpticalFlowPyrLK's default, as it passes it on

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

/// Values from one row of a point's kept window to the next: whole 16-pixel vectors.
inline int window_stride(int width) { return (width + 15) / 16 * 16; }

/// A point's sums, each in OpenCV's order: the 4 lanes of its vector part (per quantity) and
/// its scalar rest. Of the window: Ix Ix, Ix Iy, Iy Iy (lanes 4q + k); of a step: qb0 and qb1's
/// lanes (b1, b2 of pixels 0 and 4, b1, b2 of 1 and 5; the same of 2 and 6, 3 and 7), b1, b2.
struct WindowSums {
    float lane[12], tail[3];
};
struct StepSums {
    float lane[8], tail[2];
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

/// The window at (ix, iy) with weights `w`, and its sums of Ix Ix, Ix Iy and Iy Iy: lane k of the
/// vector part takes pixel 8c + k then 8c + 4 + k of each chunk c of 8 pixels, the scalar rest
/// pixel by pixel, row by row.
WindowSums window_generic(const cv::Mat &I, Derivatives derivatives, int ix, int iy, const Weights &w, int width,
                          int height, int chunks, Window win) {
    const size_t stepI = I.step;
    const ptrdiff_t dstep = derivatives.step;
    const int body = chunks * 8;
    WindowSums sums = {};
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
                    const int x = 8 * c + 4 * h + k;
                    sums.lane[k] += float(ixv[x] * ixv[x]);
                    sums.lane[4 + k] += float(ixv[x] * iyv[x]);
                    sums.lane[8 + k] += float(iyv[x] * iyv[x]);
                }
        for (int x = body; x < width; ++x) {
            sums.tail[0] += float(ixv[x] * ixv[x]);
            sums.tail[1] += float(ixv[x] * iyv[x]);
            sums.tail[2] += float(iyv[x] * iyv[x]);
        }
    }
    return sums;
}

/// The sums b1 and b2 for the second image's window at (ix, iy), weights `w`: in the vector part,
/// qb0 and qb1 (see StepSums), each element a sum of two products converted once; the scalar
/// rest pixel by pixel.
StepSums step_generic(const cv::Mat &J, int ix, int iy, const Weights &w, int width, int height, int chunks,
                      Window win) {
    const size_t stepJ = J.step;
    const int body = chunks * 8;
    StepSums sums = {};
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
                    const int a = 8 * c + 2 * q + r, b = a + 4;
                    sums.lane[4 * q + 2 * r] += float(diff[a] * dI[2 * a] + diff[b] * dI[2 * b]);
                    sums.lane[4 * q + 2 * r + 1] += float(diff[a] * dI[2 * a + 1] + diff[b] * dI[2 * b + 1]);
                }
        for (int x = body; x < width; ++x) {
            sums.tail[0] += float(diff[x] * dI[2 * x]);
            sums.tail[1] += float(diff[x] * dI[2 * x + 1]);
        }
    }
    return sums;
}

#if FK_X86_KERNELS
bool has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

/// Bilinear interpolation of 16-bit pairs in 32 bits: d0, d1 a row's values at x and x + 1, e0,
/// e1 the next row's; (v + 2^(bits - 1)) >> bits, packed back to 16 bits in order (the products
/// and sums of OpenCV's vector code, exact).
template <int bits>
__attribute__((target("avx2"))) inline __m256i interpolate(__m256i d0, __m256i d1, __m256i e0, __m256i e1,
                                                           __m256i w0, __m256i w1) {
    const __m256i delta = _mm256_set1_epi32(1 << (bits - 1));
    __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(d0, d1), w0),
                                  _mm256_madd_epi16(_mm256_unpacklo_epi16(e0, e1), w1));
    __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(d0, d1), w0),
                                  _mm256_madd_epi16(_mm256_unpackhi_epi16(e0, e1), w1));
    lo = _mm256_srai_epi32(_mm256_add_epi32(lo, delta), bits);
    hi = _mm256_srai_epi32(_mm256_add_epi32(hi, delta), bits);
    return _mm256_packs_epi32(lo, hi);  // per 128-bit half: values 0-3 then 4-7, so in order
}

/// 16 pixels of two 8-bit rows interpolated, (v + 256) >> 9 (the sixteenth pixel meaningless).
__attribute__((target("avx2"))) inline __m256i interpolate_row(const uchar *row, size_t step, __m256i w0,
                                                                __m256i w1) {
    const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row));
    const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + step));
    return interpolate<weight_bits - 5>(_mm256_cvtepu8_epi16(r0), _mm256_cvtepu8_epi16(_mm_srli_si128(r0, 1)),
                                        _mm256_cvtepu8_epi16(r1), _mm256_cvtepu8_epi16(_mm_srli_si128(r1, 1)), w0,
                                        w1);
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

#endif  // FK_X86_KERNELS

/// What the 15-pixel paths leave for the sums, per point of a batch: each row's 8 vector-part
/// values as one vector (lane k of a sum takes elements k and 4 + k; of a step, element c is
/// lane c of qb0 then qb1), and the 7 scalar-rest values of each row in a row of their own
/// (rows overlap by a value, padded to whole vectors), per quantity.
struct Elements {
    float *lane, *tail;
    int height, tail_stride;  // tail_stride: 7 x height rounded up to whole vectors, and one more
    float *lane_row(int p, int quantity, int quantities, int y) const {
        return lane + ((size_t(p) * quantities + quantity) * height + y) * 8;
    }
    float *tail_row(int p, int quantity, int quantities) const {
        return tail + (size_t(p) * quantities + quantity) * tail_stride;
    }
};

#if FK_X86_KERNELS
/// window_generic for a window 15 pixels wide (FaceKit's), each row one vector of 16 pixels, its
/// values for the sums left in `out` for point p (sum_windows_15 adds them). Reads no image pixel
/// OpenCV's loop does not (x + 15 at most); the derivatives' rows hold 17 pixels, the
/// seventeenth only ever in a lane that is dropped.
__attribute__((target("avx2"))) void window_15(const cv::Mat &I, Derivatives derivatives, int ix, int iy,
                                               const Weights &w, int height, Window win, const Elements &out,
                                               int p) {
    const size_t stepI = I.step;
    const ptrdiff_t dstep = derivatives.step;
    const __m256i w0 = weight_pairs(w.w00, w.w01), w1 = weight_pairs(w.w10, w.w11);
    for (int y = 0; y < height; ++y) {
        const uchar *src = I.ptr() + ptrdiff_t(y + iy) * ptrdiff_t(stepI) + ix;
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(win.I + y * win.stride), interpolate_row(src, stepI, w0, w1));
        const int16_t *d = derivatives.data + y * dstep;
        // 8 pixels of interleaved (Ix, Iy) at a time: pixels x and x + 1 of rows y and y + 1.
        const __m256i D0 = interpolate<weight_bits>(load8(d), load8(d + 2), load8(d + dstep), load8(d + dstep + 2), w0, w1);
        const __m256i D1 = interpolate<weight_bits>(load8(d + 16), load8(d + 18), load8(d + dstep + 16),
                                                    load8(d + dstep + 18), w0, w1);
        int16_t *dIw = win.dI + y * win.stride * 2;
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dIw), D0);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(dIw + 16), D1);
        for (int h = 0; h < 2; ++h) {
            const __m256i D = h == 0 ? D0 : D1;
            const __m256 fx = _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(D, 16), 16));
            const __m256 fy = _mm256_cvtepi32_ps(_mm256_srai_epi32(D, 16));
            const __m256 products[3] = {_mm256_mul_ps(fx, fx), _mm256_mul_ps(fx, fy), _mm256_mul_ps(fy, fy)};
            for (int q = 0; q < 3; ++q)
                _mm256_storeu_ps(h == 0 ? out.lane_row(p, q, 3, y) : out.tail_row(p, q, 3) + 7 * y, products[q]);
        }
    }
}

/// step_generic for a window 15 pixels wide, its values left in `out` for point p.
__attribute__((target("avx2"))) void step_15(const cv::Mat &J, int ix, int iy, const Weights &w, int height,
                                             Window win, const Elements &out, int p) {
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
        const __m256 q = _mm256_cvtepi32_ps(_mm256_set_m128i(_mm_unpackhi_epi32(sx, sy), _mm_unpacklo_epi32(sx, sy)));
        _mm256_storeu_ps(out.lane_row(p, 0, 1, y), q);
        _mm256_storeu_ps(out.tail_row(p, 0, 2) + 7 * y, _mm256_cvtepi32_ps(px[1]));
        _mm256_storeu_ps(out.tail_row(p, 1, 2) + 7 * y, _mm256_cvtepi32_ps(py[1]));
    }
}

/// Rows r[0 ... 7] become columns.
__attribute__((target("avx2"))) inline void transpose8(__m256 r[8]) {
    __m256 t[8], u[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 2; ++i) {
        u[4 * i] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        u[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        u[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        u[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        r[i] = _mm256_permute2f128_ps(u[i], u[4 + i], 0x20);
        r[4 + i] = _mm256_permute2f128_ps(u[i], u[4 + i], 0x31);
    }
}

/// Adds the elements the 15-pixel paths left for eight points, each sum in its own order, the
/// eight points' sums side by side (lane[i] and tail[q] hold point p's in their lane p). A
/// window's rows carry 3 lane vectors (lane k of quantity q takes elements k, then 4 + k) and 3
/// rests; a step's one (element c to lane c) and 2.
__attribute__((target("avx2"))) void sum_elements(const Elements &in, bool window, __m256 *lane, __m256 *tail) {
    const int lane_vectors = window ? 3 : 1, rests = window ? 3 : 2;
    for (int i = 0; i < (window ? 12 : 8); ++i) lane[i] = _mm256_setzero_ps();
    for (int y = 0; y < in.height; ++y)
        for (int q = 0; q < lane_vectors; ++q) {
            __m256 r[8];
            for (int p = 0; p < 8; ++p) r[p] = _mm256_loadu_ps(in.lane_row(p, q, lane_vectors, y));
            transpose8(r);
            if (window) {
                for (int k = 0; k < 4; ++k) lane[4 * q + k] = _mm256_add_ps(lane[4 * q + k], r[k]);
                for (int k = 0; k < 4; ++k) lane[4 * q + k] = _mm256_add_ps(lane[4 * q + k], r[4 + k]);
            } else {
                for (int c = 0; c < 8; ++c) lane[c] = _mm256_add_ps(lane[c], r[c]);
            }
        }
    const int length = 7 * in.height;
    for (int q = 0; q < rests; ++q) {
        __m256 acc = _mm256_setzero_ps();
        for (int e = 0; e < length; e += 8) {
            __m256 r[8];
            for (int p = 0; p < 8; ++p) r[p] = _mm256_loadu_ps(in.tail_row(p, q, rests) + e);
            transpose8(r);
            for (int j = 0; j < 8 && e + j < length; ++j) acc = _mm256_add_ps(acc, r[j]);
        }
        tail[q] = acc;
    }
}

/// Lane p of each of the vectors into point p's `field`.
template <class Sums, size_t count>
__attribute__((target("avx2"))) void spread(const __m256 *vectors, float (Sums::*field)[count], Sums *sums) {
    alignas(32) float v[8];
    for (size_t i = 0; i < count; ++i) {
        _mm256_store_ps(v, vectors[i]);
        for (int p = 0; p < 8; ++p) (sums[p].*field)[i] = v[p];
    }
}

/// sum_elements for a window's values: point p's WindowSums.
__attribute__((target("avx2"))) void sum_windows_15(const Elements &in, WindowSums *sums) {
    __m256 lane[12], tail[3];
    sum_elements(in, true, lane, tail);
    spread(lane, &WindowSums::lane, sums);
    spread(tail, &WindowSums::tail, sums);
}

/// sum_elements for a step's values: point p's StepSums.
__attribute__((target("avx2"))) void sum_steps_15(const Elements &in, StepSums *sums) {
    __m256 lane[8], tail[2];
    sum_elements(in, false, lane, tail);
    spread(lane, &StepSums::lane, sums);
    spread(tail, &StepSums::tail, sums);
}
#endif  // FK_X86_KERNELS

/// One batch of up to `lanes` points on one pyramid level: LKTrackerInvoker's loop body, point by
/// point where it decides; in the 15-pixel path, side by side where it sums.
struct Level {
    const cv::Mat &I, &J;
    int width, height, chunks;  // the window; its 8-pixel vector chunks
    int level, max_level, max_count;
    double epsilon;
    std::vector<int16_t> &window_I, &window_dI, &derivatives;
    Elements elements;

    Window window(int p) {
        const int stride = window_stride(width);
        return {window_I.data() + size_t(p) * stride * height, window_dI.data() + size_t(p) * stride * height * 2,
                stride};
    }

    void run(const cv::Point2f *from, cv::Point2f *to, uchar *status, int count) {
        const cv::Point2f half((width - 1) * 0.5f, (height - 1) * 0.5f);
#if FK_X86_KERNELS
        const bool fast = width == 15 && has_avx2();
#endif
        cv::Point2f next[lanes], previous_delta[lanes];
        float A11[lanes], A12[lanes], A22[lanes], D[lanes];
        bool active[lanes] = {};
        int iterations[lanes] = {};

        // The window of the first image and the matrix of its derivatives.
        WindowSums window_sums[lanes];
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
#if FK_X86_KERNELS
            if (fast && height == 15 && ix >= 1 && iy >= 1 && ix + 16 < I.cols && iy + 16 < I.rows)
                scharr_16(I, ix, iy, derivatives.data(), stride);
            else
#endif
                scharr(I, ix, iy, width + 1, height + 1, derivatives.data(), stride);
            const Derivatives d{derivatives.data(), 2 * stride};
#if FK_X86_KERNELS
            if (fast)
                window_15(I, d, ix, iy, w, height, window(p), elements, p);
            else
#endif
                window_sums[p] = window_generic(I, d, ix, iy, w, width, height, chunks, window(p));
        }
#if FK_X86_KERNELS
        if (fast) sum_windows_15(elements, window_sums);
#endif
        for (int p = 0; p < count; ++p) {
            if (!active[p]) continue;
            const WindowSums &s = window_sums[p];
            auto reduce = [&](int first) {  // v_reduce_sum: (l0 + l2) + (l1 + l3)
                return (s.lane[first] + s.lane[first + 2]) + (s.lane[first + 1] + s.lane[first + 3]);
            };
            A11[p] = (s.tail[0] + reduce(0)) * float_scale;
            A12[p] = (s.tail[1] + reduce(4)) * float_scale;
            A22[p] = (s.tail[2] + reduce(8)) * float_scale;
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
        for (;;) {
            bool stepped[lanes] = {};
            bool any = false;
            StepSums step_sums[lanes];
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
#if FK_X86_KERNELS
                if (fast)
                    step_15(J, ix, iy, w, height, window(p), elements, p);
                else
#endif
                    step_sums[p] = step_generic(J, ix, iy, w, width, height, chunks, window(p));
            }
            if (!any) break;
#if FK_X86_KERNELS
            if (fast) sum_steps_15(elements, step_sums);
#endif
            for (int p = 0; p < count; ++p) {
                if (!stepped[p]) continue;
                const StepSums &s = step_sums[p];
                float lanes_added[4];  // qb0 + qb1
                for (int k = 0; k < 4; ++k) lanes_added[k] = s.lane[k] + s.lane[4 + k];
                const float b1 = (s.tail[0] + (lanes_added[0] + lanes_added[2])) * float_scale;
                const float b2 = (s.tail[1] + (lanes_added[1] + lanes_added[3])) * float_scale;
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
    const int stride = window_stride(width);
    const int tail_stride = (7 * height + 1 + 7) / 8 * 8;
    thread_local std::vector<int16_t> window_I, window_dI, derivatives;
    thread_local std::vector<float> lane_elements, tail_elements;
    window_I.resize(size_t(lanes) * stride * height);
    window_dI.resize(size_t(lanes) * stride * height * 2);
    derivatives.resize(size_t(height + 1) * (width + 2) * 2);  // zeros where never written
    // Zeros at first, and then finite values (of earlier points) in the lanes of absent points.
    lane_elements.resize(size_t(lanes) * 3 * height * 8);
    tail_elements.resize(size_t(lanes) * 3 * tail_stride);
    const Elements elements{lane_elements.data(), tail_elements.data(), height, tail_stride};
    for (int start = 0; start < n; start += lanes) {
        const int count = std::min(lanes, n - start);
        for (int level = levels; level >= 0; --level) {
            CV_Assert(previous[level].size() == next[level].size());
            Level step{previous[level], next[level], width,  height,      chunks,     level,   levels,
                       max_count,       epsilon,     window_I, window_dI, derivatives, elements};
            step.run(from.data() + start, to.data() + start, status.data() + start, count);
        }
    }
}

}  // namespace fk

#pragma GCC visibility pop

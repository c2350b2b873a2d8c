// Squared distances between two sets of descriptors: one matrix product through the system BLAS
// (OpenBLAS), the bulk of the work of a nearest-neighbour graph.
#include "CFaceKit.h"
#include "guard.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

std::vector<float> squared_norms(const float *rows, int32_t count, int32_t dimension) {
    std::vector<float> norms(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
        const float *row = rows + int64_t(i) * dimension;
        float sum = 0;
        for (int32_t d = 0; d < dimension; ++d) sum += row[d] * row[d];
        norms[size_t(i)] = sum;
    }
    return norms;
}

}  // namespace

extern "C" int32_t fk_squared_distances(const float *a, int32_t a_count, const float *b, int32_t b_count,
                                        int32_t dimension, float *out, fk_error *error) {
    return fk::guarded(error, [&] {
        fk::require(a != nullptr && b != nullptr && out != nullptr, "a, b and out must not be NULL");
        fk::require(a_count >= 1 && b_count >= 1 && dimension >= 1,
                    "a_count, b_count and dimension must be at least 1");
        fk::require(int64_t(a_count) * int64_t(dimension) <= std::numeric_limits<int32_t>::max() &&
                        int64_t(b_count) * int64_t(dimension) <= std::numeric_limits<int32_t>::max(),
                    "a and b must each hold fewer than 2^31 floats");
        const std::vector<float> a_norms = squared_norms(a, a_count, dimension);
        const std::vector<float> b_norms = squared_norms(b, b_count, dimension);
        // out = -2 a b^T, then each entry gains both squared norms.
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, a_count, b_count, dimension, -2.0f, a, dimension, b,
                    dimension, 0.0f, out, b_count);
        for (int32_t i = 0; i < a_count; ++i) {
            float *row = out + int64_t(i) * b_count;
            const float a_norm = a_norms[size_t(i)];
            for (int32_t j = 0; j < b_count; ++j) row[j] = std::max(0.0f, row[j] + a_norm + b_norms[size_t(j)]);
        }
    });
}

#pragma GCC visibility pop

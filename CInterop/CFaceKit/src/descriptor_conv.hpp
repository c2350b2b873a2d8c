// dlib's convolution layer (con_) for inference, with the same numbers in less time.
//
// dlib convolves by unfolding each output pixel's window into a row of a matrix (img2col) and
// multiplying the filters by it with BLAS. Its unfolding tests every element against the image's
// border and allocates the matrix afresh at every layer; on the face descriptor's ResNet that
// took as long as the products themselves (perf: 5.9% of `facekit track` against 7.3% for
// sgemm). This layer unfolds into the same matrix, element for element, by copying each
// window row whole (only rows that cross the border are filled element by element), into a
// buffer kept by the thread, then makes dlib's own product call (the same cblas_sgemm, same
// arguments) and adds the biases with dlib's tt::add. Same matrix, same calls: the same bits.
//
// The model file is read and written by dlib's con_ itself, so the format is dlib's.
#pragma once

#include <dlib/dnn.h>

#include <cstring>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

template <long num_filters, long nr, long nc, int stride_y, int stride_x,
          int padding_y = stride_y != 1 ? 0 : nr / 2, int padding_x = stride_x != 1 ? 0 : nc / 2>
class descriptor_con_ {
public:
    template <typename SUBNET> void setup(const SUBNET &sub) { layer_.setup(sub); }

    template <typename SUBNET> void forward(const SUBNET &sub, dlib::resizable_tensor &output) {
        const dlib::tensor &data = sub.get_output();
        dlib::tensor &params = layer_.get_layer_params();
        const long channels = data.k(), height = data.nr(), width = data.nc();
        const long pad_y = layer_.padding_y(), pad_x = layer_.padding_x();
        const long out_h = 1 + (height + 2 * pad_y - nr) / stride_y;
        const long out_w = 1 + (width + 2 * pad_x - nc) / stride_x;
        const long depth = channels * nr * nc;
        DLIB_CASSERT(long(params.size()) >= num_filters * depth);
        output.set_size(data.num_samples(), num_filters, out_h, out_w);
        thread_local std::vector<float> columns;
        columns.resize(size_t(out_h * out_w * depth));
        for (long n = 0; n < data.num_samples(); ++n) {
            unfold(data.host() + channels * height * width * n, channels, height, width, pad_y, pad_x, out_h, out_w,
                   columns.data());
            // What dlib's tensor_conv does for sample n: set_sample(n, mat(filters) * trans(img2col)),
            // which its BLAS binding runs as this one call.
            namespace blas = dlib::blas_bindings;
            blas::cblas_sgemm(blas::CblasRowMajor, blas::CblasNoTrans, blas::CblasTrans, int(num_filters), int(out_h * out_w), int(depth), 1.0f,
                        params.host(), int(depth), columns.data(), int(depth), 0.0f,
                        output.host() + n * num_filters * out_h * out_w, int(out_h * out_w));
        }
        if (!layer_.bias_is_disabled()) {
            dlib::alias_tensor biases(1, num_filters);
            dlib::tt::add(1, output, 1, biases(params, size_t(num_filters * depth)));
        }
    }

    /// Inference only, but dlib's network asks for the signature; it is con_'s.
    template <typename SUBNET> void backward(const dlib::tensor &gradient, SUBNET &sub, dlib::tensor &params_gradient) {
        layer_.backward(gradient, sub, params_gradient);
    }

    const dlib::tensor &get_layer_params() const { return layer_.get_layer_params(); }
    dlib::tensor &get_layer_params() { return layer_.get_layer_params(); }

    friend void serialize(const descriptor_con_ &item, std::ostream &out) { serialize(item.layer_, out); }
    friend void deserialize(descriptor_con_ &item, std::istream &in) { deserialize(item.layer_, in); }
    friend std::ostream &operator<<(std::ostream &out, const descriptor_con_ &item) { return out << item.layer_; }
    friend void to_xml(const descriptor_con_ &item, std::ostream &out) { to_xml(item.layer_, out); }

private:
    /// dlib's img2col for one sample: for each output pixel, in rows then columns, its window's
    /// values channel by channel, row by row, zero outside the image.
    static void unfold(const float *image, long channels, long height, long width, long pad_y, long pad_x, long out_h,
                       long out_w, float *out) {
        for (long oy = 0; oy < out_h; ++oy) {
            const long top = oy * stride_y - pad_y;
            for (long ox = 0; ox < out_w; ++ox) {
                const long left = ox * stride_x - pad_x;
                const bool inside_x = left >= 0 && left + nc <= width;
                for (long k = 0; k < channels; ++k) {
                    const float *plane = image + k * height * width;
                    for (long y = 0; y < nr; ++y, out += nc) {
                        const long row = top + y;
                        if (row < 0 || row >= height) {
                            std::fill(out, out + nc, 0.0f);
                        } else if (inside_x) {
                            std::memcpy(out, plane + row * width + left, sizeof(float) * nc);
                        } else {
                            for (long x = 0; x < nc; ++x) {
                                const long column = left + x;
                                out[x] = column >= 0 && column < width ? plane[row * width + column] : 0.0f;
                            }
                        }
                    }
                }
            }
        }
    }

    dlib::con_<num_filters, nr, nc, stride_y, stride_x, padding_y, padding_x> layer_;
};

template <long num_filters, long nr, long nc, int stride_y, int stride_x, typename SUBNET>
using descriptor_con = dlib::add_layer<descriptor_con_<num_filters, nr, nc, stride_y, stride_x>, SUBNET>;

}  // namespace fk

#pragma GCC visibility pop

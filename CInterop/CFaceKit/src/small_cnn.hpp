// A runner for small convolutional networks read from ONNX: the operators YuNet is made of
// (Conv, Relu, MaxPool, nearest Resize, Add, Transpose, Reshape, Sigmoid), in float, its larger
// layers shared among OpenCV's threads. It stands in for OpenCV 4.6's DNN module, whose
// convolutions are written for wide layers: YuNet's first layers are full-resolution and narrow.
#pragma once

#include "onnx_model.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk::cnn {

/// Thrown when a model uses an operator, or an operator's option, this runner does not have.
struct unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// std::allocator, but a vector's new elements are left unset rather than zeroed: every step of
/// the network writes all of its output, and a tensor grows again on each larger pass (the
/// zero-filling took 2% of a photo's analysis).
template <typename T> struct uninitialized_allocator : std::allocator<T> {
    template <typename U> struct rebind {
        using other = uninitialized_allocator<U>;
    };
    uninitialized_allocator() = default;
    template <typename U> uninitialized_allocator(const uninitialized_allocator<U> &) noexcept {}
    template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
    template <typename U, typename... Args> void construct(U *p, Args &&...args) {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};

/// A tensor with a batch of one. Four-dimensional tensors are [1, channels, height, width].
struct Tensor {
    std::vector<int> dims;
    std::vector<float, uninitialized_allocator<float>> data;
    size_t total() const { return data.size(); }
};

class Network {
public:
    /// Plans the model's steps; throws `unsupported` for what the runner cannot run.
    explicit Network(const onnx::Model &model);
    ~Network();
    Network(Network &&) noexcept;
    Network &operator=(Network &&) noexcept;

    /// The graph's single input, shaped [1, channels, height, width], for the caller to fill.
    Tensor &input(int channels, int height, int width);
    /// Runs every step on the input last shaped by input().
    void run();
    /// A tensor by its name in the model, as the last run() left it.
    const Tensor &tensor(const std::string &name) const;

    struct Step;

private:
    std::vector<Step> steps_;
    std::vector<Tensor> tensors_;
    std::map<std::string, int> names_;
    int input_ = -1;
};

}  // namespace fk::cnn

#pragma GCC visibility pop

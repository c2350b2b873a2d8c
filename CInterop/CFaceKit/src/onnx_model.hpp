// The part of an ONNX file a small convolutional network needs: its nodes in order, their
// attributes, and its float and int64 initialisers. Read straight from the protobuf wire format,
// so the shim needs no protobuf library of its own.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk::onnx {

/// Thrown for a file that is not an ONNX model this reader understands.
struct malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Attribute {
    std::vector<int64_t> ints;  // `i` or `ints`
    std::string text;           // `s`
};

struct Node {
    std::string name, op;
    std::vector<std::string> inputs, outputs;
    std::map<std::string, Attribute> attributes;

    /// The attribute's integers, or `fallback` when the node does not have it.
    std::vector<int64_t> ints(const std::string &key, std::vector<int64_t> fallback = {}) const;
    std::string text(const std::string &key, std::string fallback = {}) const;
};

struct Initializer {
    std::vector<int64_t> dims;
    std::vector<float> floats;  // FLOAT tensors
    std::vector<int64_t> ints;  // INT64 tensors
};

struct Model {
    std::vector<Node> nodes;  // topologically sorted, as ONNX requires
    std::map<std::string, Initializer> initializers;
    std::vector<std::string> inputs, outputs;  // graph inputs that are not initialisers; outputs
};

/// Parses an ONNX ModelProto; throws `malformed` for anything else.
Model parse(const char *bytes, size_t size);

}  // namespace fk::onnx

#pragma GCC visibility pop

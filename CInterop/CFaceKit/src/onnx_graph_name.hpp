// The name an ONNX file gives its graph, read from the protobuf bytes without a protobuf library:
// how FaceKit tells its own networks apart before it uses one (the eye-state and smile networks
// have the same input and output, so a file of one in the other's place would run).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk {

/// The name of the graph (ModelProto field 7, GraphProto field 2) of the ONNX model in the
/// `size` bytes at `data`; an empty string when the graph has no name, and nothing when the bytes
/// are not a well-formed protobuf message with a graph. Walks the fields once, skipping each by
/// its length (every length checked against what is left): no allocation but the name's.
std::optional<std::string> onnx_graph_name(const void *data, size_t size);

}  // namespace fk

#pragma GCC visibility pop

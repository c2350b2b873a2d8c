// Reading an ONNX file's graph name from its protobuf wire format (see onnx_graph_name.hpp).
//
// A protobuf message is a sequence of fields, each a varint key (field number << 3 | wire type)
// and a value: a varint (type 0), 8 bytes (1), a varint length and that many bytes (2), or 4
// bytes (5). Types 3 and 4 (groups) are not used by ONNX and make the bytes refused.
#include "onnx_graph_name.hpp"

#include <cstdint>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace {

struct Reader {
    const uint8_t *at;
    const uint8_t *end;

    bool varint(uint64_t &value) {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at == end) return false;
            const uint8_t byte = *at++;
            value |= uint64_t(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0) return true;
        }
        return false;
    }

    /// Reads one field's key and value: `field` and `type`, and for type 2 the bytes in
    /// [`body`, `body` + `length`). False when the bytes end early or the type is unknown.
    bool field(uint64_t &field, const uint8_t *&body, uint64_t &length) {
        uint64_t key = 0;
        if (!varint(key)) return false;
        field = key >> 3;
        uint64_t skipped = 0;
        body = nullptr;
        length = 0;
        switch (key & 7) {
        case 0: return varint(skipped);
        case 1: skipped = 8; break;
        case 2:
            if (!varint(length) || length > uint64_t(end - at)) return false;
            body = at;
            at += length;
            return field != 0;
        case 5: skipped = 4; break;
        default: return false;
        }
        if (skipped > uint64_t(end - at)) return false;
        at += skipped;
        return field != 0;
    }
};

/// Calls `each(body, length)` for every length-delimited value of field `number` in the message
/// [begin, end), in order; false when the message is not well formed.
template <typename Each> bool each_bytes(const uint8_t *begin, const uint8_t *end, uint64_t number, Each &&each) {
    Reader reader{begin, end};
    while (reader.at != reader.end) {
        uint64_t field = 0, length = 0;
        const uint8_t *body = nullptr;
        if (!reader.field(field, body, length)) return false;
        if (field == number && body != nullptr && !each(body, length)) return false;
    }
    return true;
}

}  // namespace

std::optional<std::string> fk::onnx_graph_name(const void *data, size_t size) {
    if (data == nullptr) return std::nullopt;
    const auto *begin = static_cast<const uint8_t *>(data);
    // A message field given more than once is merged, and a string field's last value wins.
    bool has_graph = false;
    std::string name;
    const bool well_formed = each_bytes(begin, begin + size, 7, [&](const uint8_t *graph, uint64_t length) {
        has_graph = true;
        return each_bytes(graph, graph + length, 2, [&](const uint8_t *text, uint64_t text_length) {
            name.assign(reinterpret_cast<const char *>(text), size_t(text_length));
            return true;
        });
    });
    if (!well_formed || !has_graph) return std::nullopt;
    return name;
}

#pragma GCC visibility pop

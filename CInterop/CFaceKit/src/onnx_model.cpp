// A reader of the few ONNX messages a convolutional network is made of. Field numbers are
// those of onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto); fields not listed are skipped, as protobuf readers do.
#include "onnx_model.hpp"

#include <cstring>

#pragma GCC visibility push(hidden)  // FaceKit's own symbols stay inside the binary that links it

namespace fk::onnx {

namespace {

enum Wire { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };
enum TensorType { kFloat = 1, kInt64 = 7 };

/// One message's fields, read in order.
class Reader {
public:
    Reader(const char *begin, const char *end) : at_(begin), end_(end) {}

    bool next() {
        if (at_ == end_) return false;
        const uint64_t key = varint();
        field_ = int(key >> 3);
        wire_ = int(key & 7);
        if (wire_ == kVarint) {
            value_ = varint();
        } else if (wire_ == kBytes) {
            const uint64_t length = varint();
            if (length > uint64_t(end_ - at_)) throw malformed("a field runs past the end of the file");
            bytes_ = at_;
            length_ = size_t(length);
            at_ += length_;
        } else if (wire_ == kFixed64 || wire_ == kFixed32) {
            length_ = wire_ == kFixed64 ? 8 : 4;
            if (length_ > size_t(end_ - at_)) throw malformed("a field runs past the end of the file");
            bytes_ = at_;
            at_ += length_;
        } else {
            throw malformed("unknown protobuf wire type");
        }
        return true;
    }

    int field() const { return field_; }
    int wire() const { return wire_; }
    uint64_t value() const { return value_; }
    Reader message() const { return Reader(bytes_, bytes_ + length_); }
    std::string text() const { return std::string(bytes_, length_); }

    /// An int64 field, whether packed or one value per field.
    void append_ints(std::vector<int64_t> &out) const {
        if (wire_ == kVarint) {
            out.push_back(int64_t(value_));
            return;
        }
        Reader packed = message();
        while (packed.at_ != packed.end_) out.push_back(int64_t(packed.varint()));
    }

    /// A float field, whether packed or one value per field.
    void append_floats(std::vector<float> &out) const {
        if (wire_ != kBytes && wire_ != kFixed32) throw malformed("a float field of the wrong type");
        if (length_ % 4 != 0) throw malformed("a packed float field of odd length");
        const size_t old = out.size();
        out.resize(old + length_ / 4);
        std::memcpy(out.data() + old, bytes_, length_);
    }

private:
    uint64_t varint() {
        uint64_t result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at_ == end_) throw malformed("the file ends inside a number");
            const uint8_t byte = uint8_t(*at_++);
            result |= uint64_t(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0) return result;
        }
        throw malformed("a number longer than 64 bits");
    }

    const char *at_, *end_;
    int field_ = 0, wire_ = 0;
    uint64_t value_ = 0;
    const char *bytes_ = nullptr;
    size_t length_ = 0;
};

std::pair<std::string, Attribute> parse_attribute(Reader reader) {
    std::string name;
    Attribute attribute;
    while (reader.next()) {
        switch (reader.field()) {
        case 1: name = reader.text(); break;
        case 3: attribute.ints.push_back(int64_t(reader.value())); break;
        case 4: attribute.text = reader.text(); break;
        case 8: reader.append_ints(attribute.ints); break;
        default: break;
        }
    }
    return {name, attribute};
}

Node parse_node(Reader reader) {
    Node node;
    while (reader.next()) {
        switch (reader.field()) {
        case 1: node.inputs.push_back(reader.text()); break;
        case 2: node.outputs.push_back(reader.text()); break;
        case 3: node.name = reader.text(); break;
        case 4: node.op = reader.text(); break;
        case 5: node.attributes.insert(parse_attribute(reader.message())); break;
        default: break;
        }
    }
    return node;
}

std::pair<std::string, Initializer> parse_tensor(Reader reader) {
    std::string name, raw;
    int type = 0;
    Initializer tensor;
    while (reader.next()) {
        switch (reader.field()) {
        case 1: reader.append_ints(tensor.dims); break;
        case 2: type = int(reader.value()); break;
        case 4: reader.append_floats(tensor.floats); break;
        case 7: reader.append_ints(tensor.ints); break;
        case 8: name = reader.text(); break;
        case 9: raw = reader.text(); break;
        case 13: throw malformed("tensor " + name + " keeps its data in another file");
        default: break;
        }
    }
    int64_t count = 1;
    for (int64_t d : tensor.dims) {
        if (d < 0 || d > (int64_t(1) << 31)) throw malformed("tensor " + name + " has a bad dimension");
        count *= d;
    }
    if (!raw.empty()) {  // raw_data is little-endian, as on every machine FaceKit builds for
        if (type == kFloat) {
            tensor.floats.resize(raw.size() / 4);
            std::memcpy(tensor.floats.data(), raw.data(), tensor.floats.size() * 4);
        } else if (type == kInt64) {
            tensor.ints.resize(raw.size() / 8);
            std::memcpy(tensor.ints.data(), raw.data(), tensor.ints.size() * 8);
        }
    }
    const size_t held = type == kFloat ? tensor.floats.size() : type == kInt64 ? tensor.ints.size() : 0;
    if (type != kFloat && type != kInt64) throw malformed("tensor " + name + " is neither float nor int64");
    if (int64_t(held) != count) throw malformed("tensor " + name + " holds the wrong number of values");
    return {name, std::move(tensor)};
}

std::string value_info_name(Reader reader) {
    while (reader.next())
        if (reader.field() == 1) return reader.text();
    return {};
}

Model parse_graph(Reader reader) {
    Model model;
    std::vector<std::string> inputs;
    while (reader.next()) {
        switch (reader.field()) {
        case 1: model.nodes.push_back(parse_node(reader.message())); break;
        case 5: model.initializers.insert(parse_tensor(reader.message())); break;
        case 11: inputs.push_back(value_info_name(reader.message())); break;
        case 12: model.outputs.push_back(value_info_name(reader.message())); break;
        default: break;
        }
    }
    for (auto &input : inputs)  // older exporters list the initialisers among the inputs
        if (model.initializers.count(input) == 0) model.inputs.push_back(input);
    return model;
}

}  // namespace

std::vector<int64_t> Node::ints(const std::string &key, std::vector<int64_t> fallback) const {
    auto found = attributes.find(key);
    return found == attributes.end() ? fallback : found->second.ints;
}

std::string Node::text(const std::string &key, std::string fallback) const {
    auto found = attributes.find(key);
    return found == attributes.end() ? fallback : found->second.text;
}

Model parse(const char *bytes, size_t size) {
    Reader reader(bytes, bytes + size);
    bool found = false;
    Model model;
    while (reader.next()) {
        if (reader.field() == 7 && reader.wire() == kBytes) {
            model = parse_graph(reader.message());
            found = true;
        }
    }
    if (!found || model.nodes.empty()) throw malformed("no graph in the file");
    return model;
}

}  // namespace fk::onnx

#pragma GCC visibility pop

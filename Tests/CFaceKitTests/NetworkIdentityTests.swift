import CFaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// `fk_patch_classifier_create` identifies a network by the name of its ONNX graph before using
/// it: the eye-state and smile networks take the same 32 x 32 patch and give one logit each, so
/// either file in the other's place used to run, with wrong probabilities and exit 0.
@Suite("CFaceKit: FaceKit's networks identified by their graph's name")
struct NetworkIdentityTests {
    static let smile = TestData.repository.appendingPathComponent("Sources/FaceKit/BundledModels/smile.onnx").path

    /// Creates a classifier for `path`, expecting its graph to be named `graphName`.
    static func create(_ path: String, graphName: String) -> NativeCall {
        var classifier: OpaquePointer?
        let call = NativeCall { fk_patch_classifier_create(path, graphName, 32, &classifier, $0) }
        fk_patch_classifier_free(classifier)
        return call
    }

    @Test("the shipped networks are accepted under their own names")
    func ownNames() {
        #expect(Self.create(NativeInputs.eyeState, graphName: "facekit_eye_state").status == FK_OK.code)
        #expect(Self.create(Self.smile, graphName: "facekit_smile").status == FK_OK.code)
    }

    @Test("the smile network as the eye-state network, and the other way round, is refused naming both graphs")
    func swapped() {
        for (path, found, expected) in [
            (Self.smile, "facekit_smile", "facekit_eye_state"), (NativeInputs.eyeState, "facekit_eye_state", "facekit_smile"),
        ] {
            let call = Self.create(path, graphName: expected)
            #expect(call.status == FK_MODEL_UNAVAILABLE.code, "\(path) as \(expected)")
            #expect(
                call.message == "\(path) is another network: its ONNX graph is named \"\(found)\", not \"\(expected)\" "
                    + "(a retrained network must keep that name: docs/cli.md, \"Model files\")")
        }
    }

    @Test("the name decides: the eye-state network's bytes under the smile graph's name pass as the smile network")
    func renamed() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: NativeInputs.eyeState)))
            let renamed = folder + "/retrained.onnx"
            try Data(try #require(ONNXBytes.renamingGraph(bytes, to: "facekit_smile"))).write(to: URL(fileURLWithPath: renamed))
            #expect(Self.create(renamed, graphName: "facekit_smile").status == FK_OK.code)
            #expect(Self.create(renamed, graphName: "facekit_eye_state").status == FK_MODEL_UNAVAILABLE.code)
        }
    }

    @Test("a graph without a name, an unprintable name and bytes cut short are refused, never run")
    func unnamedOrDamaged() throws {
        try NativeInputs.withTemporaryFolder { folder in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: NativeInputs.eyeState)))
            let unnamed = folder + "/unnamed.onnx"
            try Data(try #require(ONNXBytes.renamingGraph(bytes, to: nil))).write(to: URL(fileURLWithPath: unnamed))
            let noName = Self.create(unnamed, graphName: "facekit_eye_state")
            #expect(noName.status == FK_MODEL_UNAVAILABLE.code)
            #expect(noName.message.contains("its ONNX graph is named \"\", not \"facekit_eye_state\""), "\(noName.message)")

            let odd = folder + "/odd.onnx"
            try Data(try #require(ONNXBytes.renamingGraph(bytes, to: "facekit_eye_state\n\u{1B}[2J")))
                .write(to: URL(fileURLWithPath: odd))
            let oddName = Self.create(odd, graphName: "facekit_eye_state")
            #expect(oddName.status == FK_MODEL_UNAVAILABLE.code)
            #expect(oddName.message.contains("named \"facekit_eye_state??[2J\""), "\(oddName.message)")

            for cut in [1, 100, bytes.count / 2, bytes.count - 1] {
                let short = folder + "/short-\(cut).onnx"
                try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: short))
                let call = Self.create(short, graphName: "facekit_eye_state")
                #expect(call.status == FK_MODEL_UNAVAILABLE.code, "cut to \(cut) bytes")
                #expect(call.message == "\(short) is not a readable ONNX network (truncated or another format)", "\(cut)")
            }
        }
    }
}

/// Just enough of protobuf's wire format to rename an ONNX graph (ModelProto field 7, GraphProto
/// field 2), every length re-encoded.
enum ONNXBytes {
    struct Field {
        var number: UInt64
        /// The key and value as they were, for fields passed through.
        var raw: ArraySlice<UInt8>
        /// A length-delimited value's bytes.
        var body: ArraySlice<UInt8>?
    }

    static func varint(_ bytes: [UInt8], _ at: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while at < bytes.count, shift < 64 {
            let byte = bytes[at]
            at += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    static func encode(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    static func fields(_ message: [UInt8]) -> [Field]? {
        var fields: [Field] = []
        var at = 0
        while at < message.count {
            let start = at
            guard let key = varint(message, &at) else { return nil }
            var body: ArraySlice<UInt8>?
            switch key & 7 {
            case 0: guard varint(message, &at) != nil else { return nil }
            case 1: at += 8
            case 2:
                guard let length = varint(message, &at), Int(length) <= message.count - at else { return nil }
                body = message[at..<at + Int(length)]
                at += Int(length)
            case 5: at += 4
            default: return nil
            }
            guard at <= message.count else { return nil }
            fields.append(Field(number: key >> 3, raw: message[start..<at], body: body))
        }
        return fields
    }

    static func lengthDelimited(_ number: UInt64, _ body: [UInt8]) -> [UInt8] {
        encode(number << 3 | 2) + encode(UInt64(body.count)) + body
    }

    /// `model` with its graph named `name` (no name at all when `nil`).
    static func renamingGraph(_ model: [UInt8], to name: String?) -> [UInt8]? {
        guard let top = fields(model) else { return nil }
        var result: [UInt8] = []
        for field in top {
            guard field.number == 7, let body = field.body, let graph = fields(Array(body)) else {
                result += field.raw
                continue
            }
            var renamed: [UInt8] = graph.filter { $0.number != 2 }.flatMap(\.raw)
            if let name { renamed += lengthDelimited(2, Array(name.utf8)) }
            result += lengthDelimited(7, renamed)
        }
        return result
    }
}

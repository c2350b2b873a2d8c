import CFaceKit
import CFaceKitTools
import FaceKit
import FaceKitTestSupport
import Foundation
import Testing

/// The switch between each kernel FaceKit has its own native code for and the library call it
/// replaces (CFaceKit.h, "Kernels and their references"). The two paths themselves are compared
/// on real inputs, under AddressSanitizer and UndefinedBehaviorSanitizer, by the differential
/// suite (CInterop/differential/differential.cpp, which scripts/test runs through
/// scripts/test-sanitizers).
@Suite("Kernels and their libraries' code: the switch")
struct KernelPathTests {
    static let fast = Int32(FK_PATH_FAST.rawValue)
    static let reference = Int32(FK_PATH_REFERENCE.rawValue)

    // MARK: The switch

    @Test("each kernel's path from the environment is FaceKit's own or the library's, and an unknown kernel is refused")
    func pathFromEnvironment() {
        for kernel in 0..<Int32(FK_KERNEL_COUNT.rawValue) {
            var path: Int32 = -1
            let call = NativeCall { fk_kernel_path_chosen(kernel, &path, $0) }
            #expect(call.status == FK_OK.code && (path == Self.fast || path == Self.reference))
        }
        var path: Int32 = -1
        #expect(fk_kernel_path_chosen(Int32(FK_KERNEL_COUNT.rawValue), &path, nil) == FK_INVALID_ARGUMENT.code)
        var yunet: OpaquePointer?
        #expect(fk_yunet_create_on_path(NativeInputs.yunet, 7, &yunet, nil) == FK_INVALID_ARGUMENT.code)
        #expect(yunet == nil)
    }

    @Test("FACEKIT_NATIVE: fast, reference, or reference: and a list of kernels; anything else is refused")
    func settingValues() {
        let kernels = ["yunet", "landmarks", "descriptor"]
        #expect(kernels.count == Int(FK_KERNEL_COUNT.rawValue))
        func paths(_ value: String?) -> [Int32]? {
            var result: [Int32] = []
            for kernel in kernels.indices {
                var path: Int32 = -1
                guard fk_kernel_path_parse(value, Int32(kernel), &path, nil) == FK_OK.code else { return nil }
                result.append(path)
            }
            return result
        }
        let allFast = [Int32](repeating: Self.fast, count: kernels.count)
        let allReference = [Int32](repeating: Self.reference, count: kernels.count)
        #expect(paths(nil) == allFast && paths("") == allFast && paths("fast") == allFast)
        #expect(paths("reference") == allReference)
        #expect(paths("reference:" + kernels.joined(separator: ",")) == allReference)
        #expect(paths("reference:landmarks,descriptor") == [Self.fast, Self.reference, Self.reference])
        #expect(paths("reference:yunet") == [Self.reference, Self.fast, Self.fast])
        // flow and pose named kernels of FaceKit's own until those were removed.
        for refused in [
            "Reference", "reference:", "reference:yunet,", "reference:Yunet", "opencv", " fast", "fast,flow",
            "reference:flow", "reference:pose", "reference:yunet,pose",
        ] {
            #expect(paths(refused) == nil, "\(refused)")
        }
    }
}

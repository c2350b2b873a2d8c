// swift-tools-version:6.0
import PackageDescription

/// dlib's templates run ~100x slower at -O0, so the shim is optimised in every configuration.
let nativeOptimisation: [CXXSetting] = [.unsafeFlags(["-O2", "-std=c++17", "-fvisibility=hidden"])]

let package = Package(
    name: "FaceKit",
    products: [
        .library(name: "FaceKit", targets: ["FaceKit"]),
        .executable(name: "facekit", targets: ["facekit"]),
    ],
    targets: [
        .target(
            name: "CFaceKit",
            path: "CInterop/CFaceKit",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])] + nativeOptimisation,
            linkerSettings: [
                // dlib-1.pc names absolute library paths that SwiftPM drops: list them here.
                .linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                // Not opencv_imgcodecs: loaded when first needed (opencv_codecs.cpp), for start-up.
                .linkedLibrary("opencv_core"), .linkedLibrary("opencv_imgproc"),
                .linkedLibrary("opencv_calib3d"),
                .linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_video"),
                .linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("heif"),
                // FFmpeg: the video reader's and writer's containers, codecs and conversions.
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"), .linkedLibrary("swscale"),
                .linkedLibrary("stdc++"), .linkedLibrary("m"),
            ]
        ),
        // Native code only the training and evaluation tools use (dlib's former detectors, OpenCV's
        // cascade classifier): FaceKitDatasets links it, the runtime library and facekit do not. It
        // shares CFaceKit's private headers (fk_image, the guard) and handles.
        .target(
            name: "CFaceKitTools",
            dependencies: ["CFaceKit"],
            path: "CInterop/CFaceKitTools",
            cxxSettings: [.headerSearchPath("../CFaceKit/src"), .unsafeFlags(["-I/usr/include/opencv4"])]
                + nativeOptimisation,
            linkerSettings: [.linkedLibrary("opencv_objdetect")]
        ),
        // The YuNet detector ships with the library (Apache-2.0, see BundledModels/README.md).
        .target(name: "FaceKit", dependencies: ["CFaceKit"], resources: [.copy("BundledModels")]),
        // The command-line parser of all three executables (swift-argument-parser's shape). It uses
        // FaceKit only for FilePathEncoding: arguments are read as path bytes, and messages escape
        // paths as FaceKit writes them everywhere.
        .target(name: "FaceKitArguments", dependencies: ["FaceKit"]),
        .target(name: "FaceKitCLI", dependencies: ["FaceKit", "FaceKitArguments"]),
        .executableTarget(name: "facekit", dependencies: ["FaceKitCLI", "FaceKitArguments"]),
        .executableTarget(name: "facekit-evaluate", dependencies: ["FaceKit", "FaceKitArguments", "FaceKitDatasets"]),
        .executableTarget(name: "facekit-train", dependencies: ["FaceKit", "FaceKitArguments", "FaceKitDatasets"]),
        .target(name: "FaceKitDatasets", dependencies: ["FaceKit", "FaceKitArguments", "CFaceKitTools"]),
        .target(name: "FaceKitTestSupport", dependencies: ["FaceKitDatasets"], path: "Tests/FaceKitTestSupport"),
        .testTarget(name: "CFaceKitTests", dependencies: ["CFaceKit", "CFaceKitTools", "FaceKitTestSupport"]),
        .testTarget(name: "FaceKitTests", dependencies: ["FaceKit", "FaceKitDatasets", "FaceKitTestSupport"]),
        // The parser's own tests: nothing but FaceKitArguments (and the FaceKit it uses).
        .testTarget(name: "FaceKitArgumentsTests", dependencies: ["FaceKitArguments"]),
        .testTarget(
            name: "FaceKitCLITests", dependencies: ["FaceKitCLI", "FaceKitArguments", "FaceKit", "FaceKitTestSupport"]),
        .testTarget(
            name: "FaceKitToolsTests",
            dependencies: ["facekit-evaluate", "facekit-train", "FaceKitArguments", "FaceKitDatasets", "FaceKitTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)

// swift-tools-version:6.0
import PackageDescription

/// OpenCV's headers, through a link in the package (CInterop/SystemHeaders/opencv4 ->
/// /usr/include/opencv4, where Debian puts them), so that no target needs an unsafe `-I` flag: a
/// package with unsafe flags cannot be a versioned dependency. A `.systemLibrary` target with
/// `pkgConfig: "opencv4"` would give the same path, but also link all 55 of OpenCV's libraries,
/// videoio's and imgcodecs' hundreds of dependencies with them: half a second more at every start
/// (docs/benchmarks.md, "Start-up").
///
/// The shim's optimisation is the build configuration's: a release build compiles it at -O2; a
/// debug build at -O0, where dlib's templates run about 100 times slower, so the repository's
/// scripts build debug with `-Xcxx -O2` (README.md, "From Swift", says what a dependent's debug
/// build costs). Its symbols are hidden by `#pragma GCC visibility` in the sources.
let nativeHeaders: [CXXSetting] = [.headerSearchPath("../SystemHeaders/opencv4")]

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
            cxxSettings: nativeHeaders,
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
            cxxSettings: [.headerSearchPath("../CFaceKit/src")] + nativeHeaders,
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
        .testTarget(name: "CFaceKitTests", dependencies: ["CFaceKit", "CFaceKitTools", "FaceKit", "FaceKitTestSupport"]),
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

// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tandem", targets: ["TandemCLI"]),
        .library(name: "PlayerCore", targets: ["PlayerCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // FFmpeg 5.1 (Debian 12) through pkg-config; shim.h wraps what Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample libavfilter",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                              "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        // Thin owners of FFmpeg objects: one Swift value frees each C object.
        .target(name: "FFmpegKit", dependencies: ["CFFmpeg"]),
        // Demux → packet queues → decoders → frame queues → presentation by the media clock.
        .target(
            name: "PlayerCore",
            dependencies: [
                "FFmpegKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "TandemCLI",
            dependencies: [
                "PlayerCore", "FFmpegKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "FFmpegKitTests", dependencies: ["FFmpegKit"]),
        .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore", "FFmpegKit"]),
    ]
)

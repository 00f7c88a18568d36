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
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // FFmpeg 5.1 (Debian 12) through pkg-config; shim.h wraps what Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample libavfilter",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                              "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        // SDL2 and SDL2_ttf for windowed playback, sound and overlay text.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2 SDL2_ttf", providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]),
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
        // Stories: a list of videos browsed one at a time with at most two live players, and posters.
        .target(
            name: "StoryKit",
            dependencies: [
                "PlayerCore", "FFmpegKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The SDL window: video textures, sound device, keys, overlays. Rendering on the main thread.
        .target(
            name: "TandemWindow",
            dependencies: [
                "CSDL2", "CFFmpeg", "PlayerCore", "FFmpegKit", "StoryKit", "PartyKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Watch party logic as pure state machines: messages, clock sync, timeline, sync control,
        // the party server and participant, simulated links. No sockets here.
        .target(
            name: "PartyKit",
            dependencies: [
                "PlayerCore",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The real network edge: WebSocket server and client on SwiftNIO carrying PartyKit messages.
        .target(
            name: "PartyNet",
            dependencies: [
                "PartyKit", "StoryKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A subset of mpv's JSON IPC on a UNIX socket, so mpv tools can watch and steer Tandem.
        .target(
            name: "MPVIPC",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "TandemCLI",
            dependencies: [
                "PlayerCore", "FFmpegKit", "PartyKit", "PartyNet", "MPVIPC", "StoryKit", "TandemWindow",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "FFmpegKitTests", dependencies: ["FFmpegKit"]),
        .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore", "FFmpegKit"]),
        .testTarget(name: "PartyKitTests", dependencies: ["PartyKit", "PlayerCore"]),
        .testTarget(name: "PartyNetTests", dependencies: ["PartyNet", "PartyKit", "StoryKit"]),
        .testTarget(name: "MPVIPCTests", dependencies: ["MPVIPC"]),
        .testTarget(
            name: "StoryKitTests",
            dependencies: [
                "StoryKit", "PlayerCore", "FFmpegKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "TandemWindowTests", dependencies: ["TandemWindow", "PlayerCore", "FFmpegKit", "CFFmpeg", "CSDL2", "StoryKit", "PartyKit"]),
    ]
)

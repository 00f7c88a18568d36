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
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.10.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // libass for styled subtitles (ASS/SSA and every text format libavcodec turns into ASS lines).
        .systemLibrary(name: "CLibass", pkgConfig: "libass", providers: [.apt(["libass-dev"])]),
        // The media clock (position = anchor + elapsed × rate) and host time sources. Links nothing.
        .target(name: "MediaTime"),
        // Thin owners of FFmpeg objects: one Swift value frees each C object.
        .target(name: "FFmpegKit", dependencies: ["CFFmpeg"]),
        // Demux → packet queues → decoders → frame queues → presentation by the media clock.
        .target(
            name: "PlayerCore",
            dependencies: [
                "FFmpegKit", "MediaTime",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // Subtitles drawn onto pictures: libass for text, libavcodec's bitmaps (PGS, DVB, DVD).
        // Its own module so only the programs that show subtitles link libass.
        .target(name: "SubtitleKit", dependencies: ["CLibass", "CFFmpeg", "FFmpegKit", "PlayerCore"]),
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
                "CSDL2", "CFFmpeg", "PlayerCore", "FFmpegKit", "StoryKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Watch party logic as pure state machines: messages, clock sync, timeline, sync control,
        // the party server and participant. No sockets, no FFmpeg.
        .target(
            name: "PartyKit",
            dependencies: [
                "MediaTime",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A whole party (server, members with real players) over simulated links: `tandem simulate`.
        .target(name: "PartySimulator", dependencies: ["PartyKit", "PlayerCore", "MediaTime"]),
        // A reusable WebSocket server and client on SwiftNIO: limits, close handshake, idle timeouts.
        .target(
            name: "WebSocketTransport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The party on a real network: the server runner and the member runner (players, stories).
        .target(
            name: "PartyNet",
            dependencies: [
                "PartyKit", "StoryKit", "PlayerCore", "FFmpegKit", "MediaTime", "WebSocketTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // A subset of mpv's JSON IPC on a UNIX socket, so mpv tools can watch and steer Tandem.
        .target(
            name: "MPVIPC",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Syncplay's protocol as pure code: the line codec, privacy hashes and the client state machine.
        .target(
            name: "SyncplayKit",
            dependencies: ["PartyKit", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Tandem in a Syncplay room on a real network: the line connection, the player, the session.
        .target(
            name: "SyncplayNet",
            dependencies: [
                "SyncplayKit", "PlayerCore", "FFmpegKit", "MediaTime", "PartyKit", "PartyNet",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // `tandem serve` as a service: settings (config file, environment), the admin port and
        // its metrics, the drain on SIGTERM.
        .target(
            name: "PartyService",
            dependencies: [
                "PartyNet", "PartyKit", "PartyCluster",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The cluster's directory on PostgreSQL: which node owns each party (a lease), its key hash
        // and its last restorable state.
        .target(
            name: "PartyCluster",
            dependencies: [
                "PartyKit",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "TandemCLI",
            dependencies: [
                "PlayerCore", "FFmpegKit", "MediaTime", "PartyKit", "PartySimulator", "PartyNet", "WebSocketTransport", "MPVIPC", "StoryKit", "TandemWindow",
                "SyncplayKit", "SyncplayNet", "PartyService", "PartyCluster", "SubtitleKit",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // libFuzzer targets (scripts/fuzz.sh). Built normally, each replays the inputs it is given.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzPartyMessage", dependencies: ["FuzzDriver", "PartyKit"]),
        .executableTarget(name: "FuzzIPCRequest", dependencies: ["FuzzDriver", "MPVIPC"]),
        .executableTarget(name: "FuzzByteRange", dependencies: ["FuzzDriver", "PartyNet"]),
        .executableTarget(
            name: "FuzzHTTPUpgrade",
            dependencies: [
                "FuzzDriver", "WebSocketTransport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: failure-bounded waits, child processes and blocking work
        // kept off the cooperative pool, temporary folders, loopback ports, a UNIX-socket line client.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A certificate authority made in the test (TLS tests only: it links swift-certificates and NIOSSL).
        .target(
            name: "TestSupportTLS",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/TestSupportTLS"
        ),
        .testTarget(name: "FFmpegKitTests", dependencies: ["TestSupport", "FFmpegKit"]),
        .testTarget(
            name: "PartyClusterTests",
            dependencies: ["TestSupport", "PartyCluster", "PartyKit", "PartyService", "PartyNet", "WebSocketTransport", "SyncplayNet", "SyncplayKit",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "PlayerCoreTests", dependencies: ["TestSupport", "PlayerCore", "FFmpegKit"]),
        .testTarget(name: "SubtitleKitTests", dependencies: ["TestSupport", "SubtitleKit", "PlayerCore", "FFmpegKit"]),
        .testTarget(name: "MediaTimeTests", dependencies: ["MediaTime"]),
        .testTarget(name: "PartyKitTests", dependencies: ["PartyKit", "MediaTime"]),
        .testTarget(name: "PartySimulatorTests", dependencies: ["PartySimulator", "PartyKit"]),
        .testTarget(
            name: "WebSocketTransportTests",
            dependencies: [
                "TestSupport", "TestSupportTLS",
                "WebSocketTransport",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PartyNetTests",
            dependencies: [
                "TestSupport", "TestSupportTLS",
                "PartyNet", "PartyKit", "StoryKit", "PlayerCore", "WebSocketTransport",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PartyServiceTests",
            dependencies: ["TestSupport", "PartyService", "PartyNet", "PartyKit", "WebSocketTransport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "MPVIPCTests", dependencies: ["TestSupport", "MPVIPC", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "TandemCLITests",
            dependencies: ["TestSupport", "TandemCLI", "MPVIPC", "PlayerCore", "FFmpegKit", "MediaTime", "PartySimulator", "PartyKit", "StoryKit",
                           "PartyNet", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "StoryKitTests",
            dependencies: [
                "TestSupport",
                "StoryKit", "PlayerCore", "FFmpegKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "TandemWindowTests", dependencies: ["TestSupport", "TandemWindow", "PlayerCore", "FFmpegKit", "CFFmpeg", "CSDL2", "StoryKit"]),
        .testTarget(name: "SyncplayKitTests", dependencies: ["SyncplayKit", "PartyKit"]),
        .testTarget(
            name: "SyncplayNetTests",
            dependencies: [
                "TestSupport", "TestSupportTLS",
                "SyncplayNet", "SyncplayKit", "PlayerCore", "PartyKit", "PartyNet",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)

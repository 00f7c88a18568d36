// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tandem",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tandem", targets: ["tandem"]),
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
        // libpulse's asynchronous API, for the sound output that knows its delay.
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        // alsa-lib, for the ALSA sound output (`--ao=alsa`): the driver's own delay (`snd_pcm_delay`).
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // libnatpmp (NAT-PMP, RFC 6886; Debian ships no .pc file for it) and libminiupnpc (UPnP-IGD)
        // for port mapping on the home router.
        .systemLibrary(name: "CNatPMP", providers: [.apt(["libnatpmp-dev"])]),
        .systemLibrary(name: "CMiniUPnPc", pkgConfig: "miniupnpc", providers: [.apt(["libminiupnpc-dev"])]),
        // Small values and primitives every module may use: HostPort, the one host:port type; Awaitable,
        // the one waiter; WorkQueue, the one queue of a player's commands. Links nothing.
        .target(name: "TandemBase"),
        // The media clock (position = anchor + elapsed × rate) and host time sources. Links nothing.
        .target(name: "MediaTime"),
        // HTTP `Range` headers as pure code (RFC 9110 §14, one range): what a media server answers.
        // Links nothing, so the fuzz target FuzzByteRange builds without the server.
        .target(name: "HTTPRanges"),
        // Page links as pure code: yt-dlp's JSON (-J), mpv's --ytdl-format parsed and applied to a
        // page's formats, which formats the player plays, direct media or page. No process, no FFmpeg.
        .target(name: "YtdlKit"),
        // Thin owners of FFmpeg objects: one Swift value frees each C object.
        .target(name: "FFmpegKit", dependencies: ["CFFmpeg", "TandemBase"]),
        // What a browser plays of a host's file when it cannot open it as it is (issue #26): the plan,
        // keyframe segments remuxed to fragmented MP4 by libavformat, sound it cannot decode
        // transcoded to AAC by libavcodec, text subtitles as WebVTT. The host side's half of PartyKit's
        // WebMediaSource; the server side never links it.
        .target(name: "WebMedia", dependencies: ["CFFmpeg", "FFmpegKit", "PartyKit", "TandemBase"]),
        // Demux → packet queues → decoders → frame queues → presentation by the media clock.
        .target(
            name: "PlayerCore",
            dependencies: [
                "CFFmpeg", "FFmpegKit", "MediaTime", "TandemBase",
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
                "PlayerCore", "FFmpegKit", "TandemBase",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Sound outputs that know their delay (mpv's --ao and --audio-delay): PulseAudio on libpulse,
        // ALSA on alsa-lib, the mixer every device renders, a member's output status.
        .target(name: "SoundOutput", dependencies: ["CPulse", "CALSA", "PlayerCore", "FFmpegKit", "MediaTime"]),
        // The SDL window: video textures, SDL's sound device, keys, overlays. Rendering on the main thread.
        .target(
            name: "TandemWindow",
            dependencies: [
                "CSDL2", "CFFmpeg", "PlayerCore", "FFmpegKit", "StoryKit", "SoundOutput",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Watch party logic as pure state machines: messages, clock sync, timeline, sync control,
        // the party server and participant. No sockets, no FFmpeg.
        .target(
            name: "PartyKit",
            dependencies: [
                "MediaTime", "TandemBase",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A whole party (server, members with real players) over simulated links: `tandem simulate`.
        .target(
            name: "PartySimulator",
            dependencies: ["PartyKit", "PlayerCore", "MediaTime", .product(name: "DequeModule", package: "swift-collections")]
        ),
        // A reusable WebSocket server and client on SwiftNIO: limits, close handshake, idle timeouts. TLS
        // comes from outside (its WebSocketSecurity protocol): it links no TLS library.
        .target(
            name: "WebSocketTransport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TLS for WebSocketTransport on NIOSSL (`wss://`, and `https://` for a server's responder): the
        // server's and the client's `WebSocketSecurity`, and a failed handshake told in words. Its own
        // module so the transport (and its fuzz target) links no BoringSSL.
        .target(
            name: "WebSocketTLS",
            dependencies: [
                "WebSocketTransport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // TLS for both roles of a party: the server's identity (self-signed or given), a member's trust
        // (pinned, verified or insecure; trust on first use), fingerprints, the state folder.
        .target(
            name: "PartySecurity",
            dependencies: [
                "PartyKit", "WebSocketTransport", "WebSocketTLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The party server on the network: the runner (PartyServerCore on real connections), the media
        // endpoint and relay, the cluster gate. Links no decoder: no FFmpeg, PlayerCore or StoryKit.
        // The browser guest's page (HTML, CSS, ES modules) embedded in the binary, and its routes. Pure:
        // links nothing.
        .target(
            name: "PartyWeb",
            exclude: ["Page/README.md"],
            resources: [
                .embedInCode("Page/page.html"), .embedInCode("Page/style.css"), .embedInCode("Page/main.js"),
                .embedInCode("Page/clock.js"), .embedInCode("Page/connection.js"), .embedInCode("Page/sync.js"), .embedInCode("Page/correction.js"),
                .embedInCode("Page/media.js"), .embedInCode("Page/mse.js"), .embedInCode("Page/ui.js"),
                .embedInCode("Page/controls.js"), .embedInCode("Page/hmac.js"),
            ]
        ),
        .target(
            name: "PartyServer",
            dependencies: [
                "PartyKit", "PartySecurity", "PartyWeb", "HTTPRanges", "MediaTime", "WebSocketTransport", "WebSocketTLS", "TandemBase",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // A port on the home router mapped to this machine for a serving command's life: PCP (our own
        // code), NAT-PMP (libnatpmp), UPnP-IGD (libminiupnpc); a pure state machine and its driver.
        // Server role: links no decoder.
        .target(
            name: "PortMapping",
            dependencies: [
                "CNatPMP", "CMiniUPnPc", "TandemBase",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A party member on the network: ParticipantCore on a real connection with real players
        // (stories), media identified, played locally or streamed through the pinned tunnel; the
        // host's upstream of its files to a server.
        .target(
            name: "PartyClient",
            dependencies: [
                "PartyKit", "PartySecurity", "TandemBase", "StoryKit", "PlayerCore", "FFmpegKit", "MediaTime", "WebSocketTransport",
                "WebSocketTLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
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
        // Syncplay's line protocol on the network, for both roles: the NIO line connection (STARTTLS).
        .target(
            name: "SyncplayNet",
            dependencies: [
                "SyncplayKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // Syncplay clients in Tandem parties: the gateway (a Syncplay server in front of PartyServer).
        .target(
            name: "SyncplayGateway",
            dependencies: [
                "SyncplayKit", "SyncplayNet", "PartyKit", "PartySecurity", "PartyServer", "MediaTime", "TandemBase",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Tandem in a Syncplay room: the client session and its player.
        .target(
            name: "SyncplayClient",
            dependencies: [
                "SyncplayKit", "SyncplayNet", "PlayerCore", "FFmpegKit", "MediaTime", "TandemBase",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // `tandem serve` as a service: settings (config file, environment), the admin port and
        // its metrics, the drain on SIGTERM, the cluster node, and ServeApplication, which composes them
        // and the Syncplay gateway as services of one ServiceGroup. Links no decoder: no FFmpeg,
        // PlayerCore or StoryKit.
        .target(
            name: "PartyService",
            dependencies: [
                "PartyServer", "PartyKit", "PartyCluster", "PartySecurity", "SyncplayGateway", "TandemBase", "PortMapping",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
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
                "PartyKit", "TandemBase",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What `tandem` does, for every command: the play, party (a host's own server, gateway, media and
        // router port too), story and Syncplay sessions and their windows and outputs, playlists,
        // watch-later, the config file, mpv IPC targets, signals.
        .target(
            name: "TandemApp",
            dependencies: [
                "PlayerCore", "FFmpegKit", "MediaTime", "PartyKit", "PartySimulator", "PartySecurity",
                "PartyClient", "MPVIPC", "StoryKit", "TandemWindow", "SyncplayKit", "SyncplayClient", "SubtitleKit", "TandemBase", "SoundOutput",
                "YtdlKit", "PartyServer", "PortMapping", "SyncplayGateway", "WebMedia",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The benchmark tools behind `tandem bench`: the load generator, the delayed link, skew phases,
        // statistics, child processes.
        .target(
            name: "TandemBench",
            dependencies: [
                "TandemApp", "TandemBase", "PlayerCore", "MediaTime", "PartyKit", "PartySecurity", "PartySimulator",
                "WebSocketTransport", "MPVIPC",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The command line (swift-argument-parser): every subcommand's options, checks and help.
        .target(
            name: "TandemCLI",
            dependencies: [
                "TandemApp", "TandemBench", "TandemBase",
                "PlayerCore", "FFmpegKit", "MediaTime", "PartyKit", "PartySimulator", "PartySecurity",
                "MPVIPC", "StoryKit", "TandemWindow", "SyncplayKit", "SyncplayGateway",
                "SyncplayClient", "PartyService", "SubtitleKit", "SoundOutput", "PortMapping", "YtdlKit",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The `tandem` executable: runs TandemCLI's root command.
        .executableTarget(name: "tandem", dependencies: ["TandemCLI"]),
        // scripts/leak-check.sh: open → preroll → close cycles under LeakSanitizer (the player and FFmpeg only).
        .executableTarget(name: "LeakCheck", dependencies: ["PlayerCore", "FFmpegKit"]),
        // libFuzzer targets (scripts/fuzz.sh). Built normally, each replays the inputs it is given. Each
        // depends on FuzzDriver and the modules it fuzzes only: the fuzz build instruments every module it
        // compiles (no NIOSSL, swift-certificates, PartySecurity, PartyServer or FFmpeg among them).
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzPartyMessage", dependencies: ["FuzzDriver", "PartyKit"]),
        .executableTarget(name: "FuzzIPCRequest", dependencies: ["FuzzDriver", "MPVIPC"]),
        .executableTarget(name: "FuzzByteRange", dependencies: ["FuzzDriver", "HTTPRanges"]),
        .executableTarget(name: "FuzzWebPath", dependencies: ["FuzzDriver", "PartyKit", "PartyWeb"]),
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
        // kept off the cooperative pool, temporary folders, loopback ports, a UNIX-socket line client, a
        // WebDriver client on a real headless Chromium, the bundled clips, `play --json`'s documented lines,
        // a subtitled film.
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
        // A static web server with byte ranges on loopback (SwiftNIO), for the targets that test URLs and pages.
        .target(
            name: "TestSupportHTTP",
            dependencies: [
                "HTTPRanges",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TestSupportHTTP"
        ),
        .testTarget(name: "TandemBaseTests", dependencies: ["TandemBase"]),
        .testTarget(name: "HTTPRangesTests", dependencies: ["HTTPRanges", "PartyKit"]),
        // The --ytdl-format parser and selector over recorded and hand-written yt-dlp answers (Fixtures/).
        .testTarget(name: "YtdlKitTests", dependencies: ["YtdlKit"], exclude: ["Fixtures"]),
        // The mapping machine, the PCP codec and the address rules; and real NATs in network
        // namespaces (scripts/netns.sh, scripts/test-gateway.py) with the built tandem.
        .testTarget(name: "PortMappingTests", dependencies: ["TestSupport", "PortMapping", "TandemBase"]),
        .testTarget(name: "FFmpegKitTests", dependencies: ["TestSupport", "FFmpegKit", "CFFmpeg"]),
        .testTarget(
            name: "PartyClusterTests",
            dependencies: ["TestSupport", "PartyCluster", "PartyKit", "PartyService", "PartyServer", "PartyClient", "PlayerCore", "WebSocketTransport",
                           "SyncplayGateway", "SyncplayKit",
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        // The plan against the page's table, segments and their timestamps against the ffmpeg CLI,
        // transcoded sound, WebVTT.
        .testTarget(name: "WebMediaTests", dependencies: ["TestSupport", "WebMedia", "FFmpegKit", "PartyKit"]),
        .testTarget(name: "PlayerCoreTests", dependencies: ["TestSupport", "PlayerCore", "FFmpegKit", "MediaTime"]),
        .testTarget(name: "SubtitleKitTests", dependencies: ["TestSupport", "SubtitleKit", "PlayerCore", "FFmpegKit", "CFFmpeg"]),
        .testTarget(name: "MediaTimeTests", dependencies: ["MediaTime"]),
        .testTarget(name: "PartyKitTests", dependencies: ["PartyKit", "MediaTime"]),
        .testTarget(name: "PartySimulatorTests", dependencies: ["PartySimulator", "PartyKit"]),
        .testTarget(
            name: "WebSocketTransportTests",
            dependencies: [
                "TestSupport", "TestSupportTLS",
                "WebSocketTransport", "WebSocketTLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "PartyServerTests", dependencies: ["PartyServer", "PartyKit"]),
        // The browser guest's page: its routes, its modules under Node, and the page in a real headless Chromium
        // through TestSupport's WebDriver.
        .testTarget(name: "PartyWebTests", dependencies: ["PartyWeb", "PartyKit", "TestSupport", "TestSupportHTTP"], exclude: ["js"]),
        .testTarget(
            name: "PartyClientTests",
            dependencies: [
                "TestSupport", "TestSupportTLS", "TestSupportHTTP",
                "PartyClient", "PartyServer", "PartySecurity", "PartyKit", "StoryKit", "PlayerCore", "FFmpegKit",
                "MediaTime", "WebSocketTransport", "WebMedia",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PartyServiceTests",
            dependencies: ["TestSupport", "PartyService", "PartyServer", "PartyClient", "PartyKit", "WebSocketTransport", "TandemBase",
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "MPVIPCTests", dependencies: ["TestSupport", "MPVIPC", .product(name: "Logging", package: "swift-log")]),
        // What the commands do, as TandemApp's sessions and outputs run it: event lines, playlists, the
        // config file's values, watch-later, page links' process runner, the party and Syncplay windows.
        .testTarget(
            name: "TandemAppTests",
            dependencies: ["TestSupport", "TandemApp", "MPVIPC", "PlayerCore", "MediaTime", "PartySimulator", "PartyKit", "StoryKit",
                           "PartyServer", "PartyClient", "SyncplayClient", "SyncplayKit", "TandemWindow", "CSDL2", "SoundOutput",
                           "YtdlKit", .product(name: "Logging", package: "swift-log")]
        ),
        // The benchmark tools' parts: the delayed link, load statistics, skew phases, summaries.
        .testTarget(name: "TandemBenchTests", dependencies: ["TandemBench", "TandemApp", "MPVIPC", "PartyKit"]),
        // The command layer: parsing, checks and help, and every command end to end as a user runs the
        // built `tandem`.
        .testTarget(
            name: "TandemCLITests",
            dependencies: ["TestSupport", "TestSupportHTTP", "TandemCLI", "TandemApp", "SoundOutput", "TandemWindow", "YtdlKit", "PlayerCore", "FFmpegKit", "PartyKit",
                           "SyncplayClient", "SyncplayKit", "WebSocketTransport",
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "StoryKitTests",
            dependencies: [
                "TestSupport",
                "StoryKit", "PlayerCore", "FFmpegKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "TandemWindowTests", dependencies: ["TestSupport", "TandemWindow", "PlayerCore", "FFmpegKit", "CFFmpeg", "CSDL2", "StoryKit", "SoundOutput"]),
        .testTarget(name: "SoundOutputTests", dependencies: ["TestSupport", "SoundOutput", "PlayerCore", "FFmpegKit"]),
        .testTarget(name: "SyncplayKitTests", dependencies: ["SyncplayKit", "PartyKit"]),
        .testTarget(
            name: "SyncplayNetTests",
            dependencies: [
                "TestSupport", "TestSupportTLS",
                "SyncplayNet", "SyncplayGateway", "SyncplayClient", "SyncplayKit", "PlayerCore", "PartyKit",
                "PartySecurity", "PartyServer", "PartyClient",
                .product(name: "Logging", package: "swift-log"),
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

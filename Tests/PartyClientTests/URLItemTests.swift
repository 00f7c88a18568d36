import FFmpegKit
import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Testing
import TestSupport
import TestSupportHTTP

/// Party items that are URLs every member opens itself (http with byte ranges, HLS), served on
/// loopback by ``StaticFileServer``: their identity, the clear refusals, and a party playing them.
@Suite(.serialized) struct URLItemTests {
    static let clip = PartyLoopbackTests.media + "/party.mp4"

    /// A folder with the party clip and an HLS rendition of it (2 s segments, made by the ffmpeg
    /// CLI), all files side by side, removed by `body`'s end.
    static func withServedFolder(mode: StaticFileServer.Mode = .ranges,
                                 _ body: (StaticFileServer) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-url-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: clip, toPath: folder.appendingPathComponent("party.mp4").path)
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-i", clip, "-c", "copy", "-f", "hls", "-hls_time", "2",
                                                           "-hls_playlist_type", "vod", folder.appendingPathComponent("index.m3u8").path])
        #expect(ffmpeg.status == 0, "ffmpeg could not make the HLS playlist: is the ffmpeg CLI installed?")
        let server = try await StaticFileServer.start(root: folder.path, mode: mode)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `MediaIdentification.identify(url:)`, whose HTTP reads block: on a thread of its own, not the
    /// cooperative pool.
    static func identify(url: String) async throws -> MediaIdentity {
        try await onOwnThread { try MediaIdentification.identify(url: url) }
    }

    /// The error `identify(url:)` throws for `url`, or nil if it identified it (on a thread of its own).
    static func identifyError(_ url: String, options: [String: String] = [:]) async -> OpenError? {
        await onOwnThread { () -> OpenError? in
            do throws(OpenError) {
                _ = try MediaIdentification.identify(url: url, inputOptions: options)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The test server answers as a web server does: HEAD without a body, a range as 206 with
    /// exactly those bytes, and in no-ranges mode the whole file whatever the `Range`.
    @Test func theTestServerAnswersHeadAndRanges() async throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.clip)))
        try await Self.withServedFolder { server in
            let head = try await RawHTTP.get(port: server.port, "/party.mp4", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["content-length"] == "\(bytes.count)" && head.headers["accept-ranges"] == "bytes")
            let range = try await RawHTTP.get(port: server.port, "/party.mp4", headers: ["Range": "bytes=100-199"])
            #expect(range.status == 206 && range.body == Array(bytes[100...199]))
            #expect(range.headers["content-range"] == "bytes 100-199/\(bytes.count)")
            server.mode = .noRanges
            let whole = try await RawHTTP.get(port: server.port, "/party.mp4", headers: ["Range": "bytes=100-199"])
            #expect(whole.status == 200 && whole.body == bytes && whole.headers["accept-ranges"] == nil)
            server.mode = .notFound
            #expect(try await RawHTTP.get(port: server.port, "/party.mp4").status == 404)
        }
    }

    @Test func anMP4OverHTTPHasTheLocalFilesDurationAndLayout() async throws {
        let local = try MediaIdentification.identify(file: Self.clip)
        try await Self.withServedFolder { server in
            let remote = try await Self.identify(url: server.url("party.mp4"))
            #expect(remote == MediaIdentity(duration: local.duration, streams: local.streams))
            #expect(remote.mismatch(with: local) == nil)
            #expect(server.requests.contains { $0.hasPrefix("GET /party.mp4 range=") }, "\(server.requests)")
        }
    }

    /// A playlist seeks by segment: it is a party item whether or not its server answers ranges.
    @Test(arguments: [StaticFileServer.Mode.ranges, .noRanges])
    func anHLSPlaylistOpensAndIdentifies(mode: StaticFileServer.Mode) async throws {
        let local = try MediaIdentification.identify(file: Self.clip)
        try await Self.withServedFolder(mode: mode) { server in
            let remote = try await Self.identify(url: server.url("index.m3u8"))
            #expect(remote.streams == local.streams)
            #expect(abs(remote.duration - local.duration) <= MediaIdentity.durationTolerance, "\(remote.duration) s")
            #expect(remote.bytes == nil && remote.sampleSHA256 == nil)
            #expect(server.requests.contains("GET /index0.ts") || server.requests.contains { $0.hasPrefix("GET /index0.ts ") })
        }
    }

    @Test func aServerWithoutRangesIsRefusedClearly() async throws {
        try await Self.withServedFolder(mode: .noRanges) { server in
            let url = server.url("party.mp4")
            #expect(await Self.identifyError(url) == OpenError(url: url, reason: OpenError.noByteRangesReason))
            #expect(await Self.identifyError(url)?.description
                    == "\(url): the server does not support byte ranges (seeking and party sync need them)")
            // The same bytes with ranges are an item.
            server.mode = .ranges
            #expect(await Self.identifyError(url) == nil)
        }
    }

    @Test func httpErrorsAreNamed() async throws {
        try await Self.withServedFolder(mode: .notFound) { server in
            let url = server.url("party.mp4")
            #expect(await Self.identifyError(url) == OpenError(url: url, reason: "HTTP 404 not found"))
            server.mode = .failing(.forbidden)
            #expect(await Self.identifyError(url) == OpenError(url: url, reason: "HTTP 403 forbidden"))
            server.mode = .failing(.serviceUnavailable)
            #expect(await Self.identifyError(url) == OpenError(url: url, reason: "HTTP 5xx server error"))
            server.mode = .failing(.gone)
            #expect(await Self.identifyError(url) == OpenError(url: url, reason: "HTTP 4xx: the server refused the request"))
        }
    }

    @Test func aRefusedConnectionIsNamed() async throws {
        // A port that was just listening and is closed: nothing listens there now.
        let closed = try await StaticFileServer.start(root: FileManager.default.temporaryDirectory.path)
        await closed.stop()
        let url = closed.url("party.mp4")
        #expect(await Self.identifyError(url) == OpenError(url: url, reason: "connection refused: nothing listens at 127.0.0.1:\(closed.port)"))
    }

    /// A server that never answers fails the open after the network timeout (shortened here by
    /// the caller's own `rw_timeout`, which takes precedence over the default).
    @Test func aSilentServerTimesOut() async throws {
        try await Self.withServedFolder(mode: .silent) { server in
            let url = server.url("party.mp4")
            #expect(await Self.identifyError(url, options: ["rw_timeout": "200000"])
                    == OpenError(url: url, reason: "timed out: no answer from 127.0.0.1:\(server.port)"))
        }
    }

    /// A party whose one item is a URL: host and guest both open the URL itself and play it at
    /// the same instant.
    @Test(arguments: ["party.mp4", "index.m3u8"])
    func hostAndGuestPlayAURLItemTogether(name: String) async throws {
        try await Self.withServedFolder { files in
            let url = files.url(name)
            let item = MediaItem(title: name, url: url, identity: try await Self.identify(url: url))
            let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
            let port = try await server.start()
            let link = PartyLink(host: "127.0.0.1", port: port, party: "url", key: "k", insecure: true)
            let hostNotices = PartyLoopbackTests.Notices(), guestNotices = PartyLoopbackTests.Notices()
            let host = Self.member(link, name: "Hana", create: PartyConfig(items: [item]), notices: hostNotices)
            let guest = Self.member(link, name: "Gus", notices: guestNotices)
            let hostRun = Task { await host.run() }
            #expect(await eventually { await host.status.me != nil })
            let guestRun = Task { await guest.run() }
            #expect(await eventually { await guest.status.synced })
            await host.request(.play)
            #expect(await eventually {
                let s = await guest.status
                return s.playing && (s.position ?? 0) > 1
            })
            let a = await host.currentPlayer, b = await guest.currentPlayer
            #expect(a?.url == url && b?.url == url, "host \(a?.url ?? "no player"), guest \(b?.url ?? "no player")")
            if let a, let b {
                let inSync = await eventually(within: 30) {
                    let now = MonotonicTimeSource().now()
                    return b.state == .playing && abs(a.clock.position(at: now) - b.clock.position(at: now)) < 0.01
                }
                let now = MonotonicTimeSource().now()
                #expect(inSync, "off by \((a.clock.position(at: now) - b.clock.position(at: now)) * 1000) ms; guest heard \(guestNotices.all.suffix(6)), host heard \(hostNotices.all.suffix(6))")
            }
            await guest.leave()
            #expect(await guestRun.value == .left)
            await host.leave()
            #expect(await hostRun.value == .left)
            await host.shutDown()
            await guest.shutDown()
            await server.stop()
        }
    }

    /// A member with no media folders: a URL item is opened from its URL, never looked up.
    static func member(_ link: PartyLink, name: String, create: PartyConfig? = nil,
                       notices: PartyLoopbackTests.Notices) -> PartyMember {
        PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: [],
                                   playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                   logger: Logger(label: "test")), notices: { notices.add($0) })
    }
}

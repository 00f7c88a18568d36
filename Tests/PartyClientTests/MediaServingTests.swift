import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Testing
import TestSupport

/// The party's media endpoint on a real server over loopback: byte ranges, credentials, and what
/// bad requests get.
@Suite(.serialized) struct MediaServingTests {
    static let file = PartyLoopbackTests.media + "/party.mp4"
    static let party = "movie-night"
    static let key = "k3y-for-tests"
    static var auth: [String: String] { ["Authorization": "Bearer \(MediaToken.derive(key: key, party: party))"] }

    static func withServer(_ body: (Int, PartyServerRunner) async throws -> Void) async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        server.media.serve(party: party, key: key, files: [0: file])
        do { try await body(port, server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static let path = MediaPath.path(party: party, item: 0)

    @Test func rangesCarryTheFilesBytes() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.file)))
        try await Self.withServer { port, _ in
            var rng = SplitMix64(seed: 7)
            for _ in 0..<12 {
                let first = Int.random(in: 0..<bytes.count, using: &rng)
                let last = min(bytes.count - 1, first + Int.random(in: 0..<100_000, using: &rng))
                let answer = try await RawHTTP.get(port: port, Self.path, headers: Self.auth.merging(["Range": "bytes=\(first)-\(last)"]) { a, _ in a })
                #expect(answer.status == 206)
                #expect(answer.headers["content-range"] == "bytes \(first)-\(last)/\(bytes.count)")
                #expect(answer.headers["accept-ranges"] == "bytes")
                #expect(answer.body == Array(bytes[first...last]))
            }
            let suffix = try await RawHTTP.get(port: port, Self.path, headers: Self.auth.merging(["Range": "bytes=-100"]) { a, _ in a })
            #expect(suffix.status == 206 && suffix.body == Array(bytes.suffix(100)))
            let whole = try await RawHTTP.get(port: port, Self.path, headers: Self.auth)
            #expect(whole.status == 200 && whole.body == bytes)
            let head = try await RawHTTP.get(port: port, Self.path, method: "HEAD", headers: Self.auth)
            #expect(head.status == 200 && head.headers["content-length"] == "\(bytes.count)" && head.body.isEmpty)
        }
    }

    @Test func badRequestsAreRefusedClearly() async throws {
        let size = try FileManager.default.attributesOfItem(atPath: Self.file)[.size] as! Int
        try await Self.withServer { port, server in
            func status(_ path: String, _ headers: [String: String] = Self.auth, method: String = "GET") async throws -> Int {
                try await RawHTTP.get(port: port, path, method: method, headers: headers).status
            }
            #expect(try await status(Self.path, [:]) == 403)
            #expect(try await status(Self.path, ["Authorization": "Bearer " + String(repeating: "0", count: 64)]) == 403)
            #expect(try await status(Self.path, ["Authorization": Self.key]) == 403, "the key itself is no credential")
            #expect(try await status(MediaPath.path(party: "other", item: 0)) == 404)
            #expect(try await status(MediaPath.path(party: Self.party, item: 1)) == 404)
            for path in ["/party/\(Self.party)/media/-1", "/party/\(Self.party)/media/../../etc/passwd",
                         "/party/\(Self.party)/media/0/../0", "/party/\(Self.party)/media/%30", "/party/\(Self.party)/media/00",
                         "/party/\(Self.party)/media/99999999999999999999", "/etc/passwd"] {
                #expect(try await status(path) == 404, "\(path)")
            }
            #expect(try await status(Self.path, method: "POST") == 405)
            for range in ["bytes=\(size)-", "bytes=5-2", "bytes=0-1,5-6", "items=0-1", "bytes=abc",
                          "bytes=" + String(repeating: "9", count: 40) + "-", "bytes=" + String(repeating: "1-", count: 5000)] {
                let answer = try await RawHTTP.get(port: port, Self.path, headers: Self.auth.merging(["Range": range]) { a, _ in a })
                #expect(answer.status == 416, "\(range.prefix(40))")
                #expect(answer.headers["content-range"] == "bytes */\(size)")
            }
            #expect(server.media.servedBodies == 0, "no refused request was sent media")
            // Garbage instead of HTTP, and a client that hangs up mid-body: the server goes on.
            _ = try? await RawHTTP.exchange(port: port, "\u{16}\u{03}\u{01}\u{02}\u{00}garbage\r\n\r\n")
            let partial = try await RawHTTP.get(port: port, Self.path, headers: Self.auth, readLimit: 1000)
            #expect(partial.status == 200)
            #expect(try await status(Self.path) == 200)
        }
    }

    @Test func concurrentRangesAreServedIndependently() async throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.file)))
        try await Self.withServer { port, _ in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for i in 0..<32 {
                    let first = i * (bytes.count / 40)
                    let last = first + bytes.count / 50
                    group.addTask {
                        let answer = try await RawHTTP.get(port: port, Self.path, headers: Self.auth.merging(["Range": "bytes=\(first)-\(last)"]) { a, _ in a })
                        return answer.status == 206 && answer.body == Array(bytes[first...last])
                    }
                }
                for try await ok in group { #expect(ok) }
            }
        }
    }

    /// A guest's player reads the party's stream through libavformat's http (seeks are range
    /// requests) and decodes exactly ffmpeg's frames of the host's file.
    @Test func aStreamingPlayerDecodesFFmpegsFrames() async throws {
        let reference = try await Self.ffmpegFrameMD5(Self.file)
        #expect(!reference.isEmpty, "ffmpeg decoded nothing: is the ffmpeg CLI installed?")
        try await Self.withServer { port, server in
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-stream-\(UUID().uuidString).framemd5").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            var options = PlayerOptions(videoSink: try FrameMD5Sink(path: out), audioSink: nil, fast: true)
            options.inputOptions = ["headers": MediaToken.header(key: Self.key, party: Self.party)]
            let player = try await Player.open("http://127.0.0.1:\(port)\(Self.path)", options: options)
            player.play()
            await player.waitUntilEnded()
            await player.close()
            let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            // Size and MD5 of every picture (ffmpeg writes times in its own output time base).
            #expect(lines.map(Self.sizeAndHash) == reference.map(Self.sizeAndHash))
            #expect(lines.count == reference.count)
            #expect(server.media.servedBodies > 0)
        }
    }

    static func sizeAndHash<S: StringProtocol>(_ line: S) -> String {
        line.split(separator: ",").suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    static func ffmpegFrameMD5(_ file: String) async throws -> [String] {
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-noautorotate", "-i", file, "-map", "0:v:0",
                                                           "-fps_mode", "passthrough", "-f", "framemd5", "-"], standardError: .inherit)
        return ffmpeg.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }
}

/// Where a member opens an item: a local copy only when it is the same content.
@Suite struct MediaResolverTests {
    static let item = PartyLoopbackTests.item("party.mp4")

    @Test func aSameContentCopyIsUsed() {
        let resolved = MediaResolver.resolve(Self.item, index: 0, party: "p", key: "k", base: "http://h:1",
                                             folders: ["/nonexistent", PartyLoopbackTests.media])
        #expect(resolved.origin == .localCopy(PartyLoopbackTests.media + "/party.mp4"))
        #expect(resolved.note == nil)
    }

    @Test func noCopyStreams() {
        let resolved = MediaResolver.resolve(Self.item, index: 3, party: "p", key: "k", base: "http://h:1", folders: ["/nonexistent"])
        #expect(resolved.origin == .streaming)
        #expect(resolved.url == "http://h:1/party/p/media/3")
        #expect(resolved.note == "party.mp4: no copy here, streaming it from the party")
        #expect(resolved.inputOptions["headers"] == MediaToken.header(key: "k", party: "p"))
        #expect(resolved.inputOptions["headers"]?.contains("Bearer k\r") == false, "the key itself is never sent")
    }

    @Test func aSameNamedDifferentFileIsSaidAndStreamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-wrong-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25",
                                                           "-t", "4", "-pix_fmt", "yuv420p", folder.appendingPathComponent("party.mp4").path])
        #expect(ffmpeg.status == 0, "ffmpeg: \(ffmpeg.standardError)")
        let resolved = MediaResolver.resolve(Self.item, index: 0, party: "p", key: "k", base: "http://h:1", folders: [folder.path])
        #expect(resolved.origin == .streaming)
        #expect(resolved.note == "party.mp4 here is 4.0 s, the party's is 60.0 s: streaming it instead")
    }

    @Test func sameLayoutOtherBytesIsCaughtByTheSampledHash() throws {
        var other = Self.item.identity
        other.sampleSHA256 = String(repeating: "ab", count: 32)
        let copy = try MediaIdentification.identify(file: PartyLoopbackTests.media + "/party.mp4")
        #expect(copy.mismatch(with: other)?.hasPrefix("has other content") == true)
        #expect(copy.mismatch(with: Self.item.identity) == nil)
    }

    @Test func titlesWithPathsAreNeverLookedUp() {
        var item = Self.item
        item.title = "../assets/party.mp4"
        let resolved = MediaResolver.resolve(item, index: 0, party: "p", key: "k", base: "http://h:1", folders: [PartyLoopbackTests.media])
        #expect(resolved.origin == .streaming)
    }
}

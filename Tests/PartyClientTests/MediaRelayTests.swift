import Foundation
import Logging
import NIOCore
import PartyKit
@testable import PartyServer
@testable import PartyClient
import PlayerCore
import Testing
import TestSupport
import WebSocketTransport

/// `tandem serve` relays a host's files: the host dials the server, the server fetches chunks and
/// caches them, members stream from the server.
@Suite(.serialized) struct MediaRelayTests {
    static let file = PartyLoopbackTests.media + "/party.mp4"

    @Test func membersStreamTheHostsFileThroughTheServerAndTheHostUploadsItOnce() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "relayed", key: "k", insecure: true)
        let notices = PartyLoopbackTests.Notices()
        // The host creates the party (no listening port of its own), then opens its relay connection.
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: notices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let upstream = Task {
            await MediaUpstream(link: link, files: [0: Self.file], seat: { await host.seatToken }, logger: Logger(label: "test")).run()
        }
        let url = "http://127.0.0.1:\(port)\(MediaPath.path(party: link.party, item: 0))"
        let headers = ["headers": MediaToken.header(key: link.key, party: link.party)]
        #expect(await eventually { (try? await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0),
            method: "HEAD", headers: ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"]).status) == 200 })

        // Four members decode the whole file from the server at once: each gets ffmpeg's frames.
        let reference = try await MediaServingTests.ffmpegFrameMD5(Self.file).map(MediaServingTests.sizeAndHash)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let out = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-relay-\(UUID().uuidString)").path
                    defer { try? FileManager.default.removeItem(atPath: out) }
                    var options = PlayerOptions(videoSink: try FrameMD5Sink(path: out), audioSink: nil, fast: true)
                    options.inputOptions = headers
                    let player = try await Player.open(url, options: options)
                    player.play()
                    await player.waitUntilEnded()
                    await player.close()
                    return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
                        .map(MediaServingTests.sizeAndHash)
                }
            }
            for try await frames in group { #expect(frames == reference) }
        }
        let size = try FileManager.default.attributesOfItem(atPath: Self.file)[.size] as! Int
        let uploaded = server.media.relay.uploadedBytes
        #expect(uploaded >= Int64(size) / 2, "the host uploaded \(uploaded) bytes")
        #expect(uploaded <= Int64(size) + Int64(RelayProtocol.chunkBytes), "four readers, one upload: \(uploaded) of \(size)")

        // A wrong credential on the relay path is refused; the relayed media still needs the token.
        #expect(try await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0)).status == 403)

        // The host leaves: its relay goes, and so do the relayed items.
        upstream.cancel()
        await upstream.value
        #expect(await eventually {
            (try? await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0),
                                    headers: ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"]).status) == 404
        })
        await host.leave()
        _ = await hostRun.value
        // The party ended: the node forgets it, so its members' credential opens nothing any more.
        #expect(await eventually { server.media.entry(party: link.party) == nil })
        let after = try await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0),
                                          headers: ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"])
        #expect(after.status == 404 && String(decoding: after.body, as: UTF8.self).contains("no such party here"),
                "\(after.status) \(String(decoding: after.body, as: UTF8.self))")
        await host.shutDown()
        await server.stop()
    }

    /// A guest that joins and asks for the item before the host's relay connection is up waits for it
    /// and is served (it was told 404, "no such party here", and never played).
    @Test func aRequestBeforeTheHostsRelayIsUpWaitsForIt() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "early", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let auth = ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"]
        let early = Task { try await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0), method: "HEAD", headers: auth) }
        // The request is in before the relay: the server holds it.
        try await waitUntil("the request waiting for the host's relay") { server.media.relay.requestsWaitingForUpstream(party: link.party) == 1 }
        let upstream = Task {
            await MediaUpstream(link: link, files: [0: Self.file], seat: { await host.seatToken }, logger: Logger(label: "test")).run()
        }
        let answer = try await early.value
        #expect(answer.status == 200)
        upstream.cancel()
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }

    @Test func onlyTheHostMayRelay() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "guarded", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        // A guest knows the key but not the host's seat: its relay offer is closed with a reason
        // (with the media token or its own seat token), and nothing is served.
        let guest = PartyLoopbackTests.member(link, name: "Gus", notices: PartyLoopbackTests.Notices())
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.seatToken != nil })
        for credential in [MediaToken.derive(key: link.key, party: link.party), await guest.seatToken ?? "", "", "x"] {
            let rogue = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                         logger: Logger(label: "test"))
            rogue.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: credential, items: [.init(index: 0, bytes: 1000)]))))
            for await _ in rogue.inbound {}
            #expect(rogue.closeReason?.contains("relay refused") == true, "\(String(describing: rogue.closeReason))")
        }
        await guest.leave()
        _ = await guestRun.value
        await guest.shutDown()
        let answer = try await RawHTTP.get(port: port, MediaPath.path(party: link.party, item: 0),
                                           headers: ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"])
        #expect(answer.status == 404)
        #expect(server.media.relay.uploadedBytes == 0)
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
    /// Chunks travel as binary frames: what the host uploads for one guest reading the whole file is
    /// the file plus a small fixed overhead (the upgrade request, the offer) and a few bytes per
    /// chunk, not the 4/3 of base64 text (protocol version 2).
    @Test func theHostUploadsAboutTheBytesAGuestIsServed() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "counted", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        // Only the relay connection goes through the counting proxy (the party connection does not).
        let proxy = RecordingProxy()
        let proxyPort = try await proxy.start(targetPort: port)
        let counted = PartyLink(host: "127.0.0.1", port: proxyPort, party: link.party, key: link.key, insecure: true)
        let upstream = Task {
            await MediaUpstream(link: counted, files: [0: Self.file], seat: { await host.seatToken }, logger: Logger(label: "test")).run()
        }
        let auth = ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"]
        let path = MediaPath.path(party: link.party, item: 0)
        #expect(await eventually { (try? await RawHTTP.get(port: port, path, method: "HEAD", headers: auth).status) == 200 })

        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.file)))
        let served = try await RawHTTP.get(port: port, path, headers: auth)
        #expect(served.status == 200)
        #expect(served.body == file)
        let uploaded = proxy.clientByteCount
        // Per chunk: the 9-byte chunk header and 8 bytes of WebSocket framing (0.05 %); 5 % is room
        // for anything else per byte. The fixed part: the upgrade request, the offer, pongs.
        let fixedOverhead = 4096
        #expect(uploaded >= file.count, "the bytes came through the proxy: \(uploaded)")
        #expect(Double(uploaded) <= 1.05 * Double(served.body.count) + Double(fixedOverhead),
                "uploaded \(uploaded) bytes for \(served.body.count) served (\(Double(uploaded) / Double(served.body.count))×)")

        upstream.cancel()
        await upstream.value
        await proxy.stop()
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }

    /// Binary frames are the host's relay chunks and nothing else: from a guest on its party
    /// connection, on a relay connection before its offer was accepted, or one that is not a chunk
    /// frame, they close that connection with 1003 and a reason; the party goes on.
    @Test func binaryFramesAreRefusedWhereTheyAreNotRelayChunks() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "binary", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let chunk = ByteBuffer(bytes: RelayProtocol.encodeChunk(RelayChunk(id: 1, data: [1, 2, 3])))

        // A guest that joined properly, then sends a binary frame.
        let guest = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/\(link.party)", logger: Logger(label: "test"))
        guest.send(PartyProtocol.encode(.hello(Hello(party: link.party, key: link.key, name: "Gus"))))
        var iterator = guest.inbound.makeAsyncIterator()
        var welcomed = false
        while let message = await iterator.next() {
            if case .welcome = try? PartyProtocol.decode(message.text) { welcomed = true; break }
        }
        #expect(welcomed)
        guest.send(binary: chunk)
        while await iterator.next() != nil {}
        #expect(guest.closeReason == "peer closed (code 1003: binary frames are not supported)")

        // A relay connection whose offer has not been accepted (none sent yet).
        let early = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                     logger: Logger(label: "test"))
        early.send(binary: chunk)
        for await _ in early.inbound {}
        #expect(early.closeReason == "peer closed (code 1003: binary frames are not supported)")

        // The host's own relay connection (its seat), then a binary frame that is not a chunk frame.
        let relay = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                     logger: Logger(label: "test"))
        let seat = try #require(await host.seatToken)
        relay.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: seat, items: [.init(index: 0, bytes: 1000)]))))
        #expect(await eventually { server.media.relay.size(party: link.party, item: 0) == 1000 })
        relay.send(binary: ByteBuffer(bytes: [2, 0, 0, 0, 0, 0, 0, 0, 1, 9]))
        for await _ in relay.inbound {}
        #expect(relay.closeReason == "peer closed (code 1003: not a relay chunk frame)")
        #expect(server.media.relay.uploadedBytes == 0)

        // The party went on: the host is still in it.
        #expect(await host.status.me != nil)
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
}

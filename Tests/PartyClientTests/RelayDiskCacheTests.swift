import Foundation
import Logging
import PartyKit
@testable import PartyServer
@testable import PartyClient
import Testing
import TestSupport

/// The relay's disk tier: chunks kept in a capped folder, keyed by content, written atomically,
/// evicted oldest first, damaged files refetched; members read from it without the host uploading again.
@Suite(.serialized) struct RelayDiskCacheTests {
    static let file = PartyLoopbackTests.media + "/party.mp4"

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-relay-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func chunkFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".chunk") }.sorted()
    }

    @Test func chunksRoundTripAreKeyedByContentAndDamageIsDetected() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try RelayDiskCache(directory: folder, capacityBytes: 1 << 20)
        let key = RelayDiskCache.Key(party: "p", item: 0, identity: "1000:abc", index: 3)
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        await cache.write(key, bytes)
        #expect(cache.count == 1)
        #expect(await cache.read(key, length: 1000) == bytes)
        // Another file under the same party and item (another identity) never hits it.
        let other = RelayDiskCache.Key(party: "p", item: 0, identity: "1000:def", index: 3)
        #expect(!cache.contains(other))
        #expect(await cache.read(other, length: 1000) == nil)
        // Reopened: the folder's chunks are found again (a server restart keeps its cache).
        let reopened = try RelayDiskCache(directory: folder, capacityBytes: 1 << 20)
        #expect(await reopened.read(key, length: 1000) == bytes)
        // A flipped byte, a truncated file, the wrong length: detected, removed, a miss.
        let path = folder + "/" + key.fileName
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        damaged[damaged.count - 1] ^= 0xff
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        #expect(await reopened.read(key, length: 1000) == nil)
        #expect(reopened.damaged == 1)
        #expect(!FileManager.default.fileExists(atPath: path), "a damaged file is removed")
        await reopened.write(key, bytes)
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(500)).write(to: URL(fileURLWithPath: path))
        #expect(await reopened.read(key, length: 1000) == nil, "truncated")
        await reopened.write(key, bytes)
        #expect(await reopened.read(key, length: 999) == nil, "not the length the item says")
        #expect(reopened.damaged == 3)
        #expect(Self.chunkFiles(folder).isEmpty)
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasPrefix(".tmp-") },
                "no temporary file is left behind")
    }

    @Test func theCapEvictsTheOldestFirst() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let chunk = [UInt8](repeating: 7, count: 10_000)
        let perFile = Int64(RelayDiskCache.headerBytes + chunk.count)
        let cache = try RelayDiskCache(directory: folder, capacityBytes: perFile * 3)
        let keys = (0..<5).map { RelayDiskCache.Key(party: "p", item: 0, identity: "x", index: Int64($0)) }
        for key in keys { await cache.write(key, chunk) }
        #expect(cache.count == 3)
        #expect(cache.storedBytes <= perFile * 3)
        #expect(keys.map(cache.contains) == [false, false, true, true, true])
        #expect(Set(Self.chunkFiles(folder)) == Set(keys.suffix(3).map(\.fileName)), "the files on disk are the index's")
        // A smaller cap at start trims what an earlier run left.
        let smaller = try RelayDiskCache(directory: folder, capacityBytes: perFile)
        #expect(smaller.count == 1 && Self.chunkFiles(folder).count == 1)
    }

    @Test func aSecondGuestIsServedFromDiskWithoutTheHostUploadingAgain() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try RelayDiskCache(directory: folder)
        // A memory tier of one chunk: everything a second reader gets must come from disk.
        let relay = MediaRelay(cacheBytes: RelayProtocol.chunkBytes, disk: disk)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, media: PartyMediaLibrary(relay: relay), logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "cached", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.seatToken != nil })
        let upstream = Task {
            await MediaUpstream(link: link, files: [0: Self.file], seat: { await host.seatToken }, logger: Logger(label: "test")).run()
        }
        let path = MediaPath.path(party: link.party, item: 0)
        let auth = ["Authorization": "Bearer \(MediaToken.derive(key: link.key, party: link.party))"]
        #expect(await eventually { (try? await RawHTTP.get(port: port, path, method: "HEAD", headers: auth).status) == 200 })
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.file)))
        let chunks = (bytes.count + RelayProtocol.chunkBytes - 1) / RelayProtocol.chunkBytes

        let first = try await RawHTTP.get(port: port, path, headers: auth)
        #expect(first.status == 200 && first.body == bytes)
        #expect(await eventually { disk.count == chunks }, "\(disk.count) of \(chunks) chunks on disk")
        let uploaded = relay.uploadedBytes
        #expect(uploaded >= Int64(bytes.count))

        // A second guest, the memory tier long moved on: every byte from disk, none from the host.
        let second = try await RawHTTP.get(port: port, path, headers: auth)
        #expect(second.status == 200 && second.body == bytes)
        let ranged = try await RawHTTP.get(port: port, path, headers: auth.merging(["Range": "bytes=100000-300000"]) { a, _ in a })
        #expect(ranged.status == 206 && ranged.body == Array(bytes[100_000...300_000]))
        #expect(relay.uploadedBytes == uploaded, "the host uploaded nothing more")
        #expect(disk.hits >= chunks)

        // A damaged chunk file is detected and that one chunk fetched from the host again.
        let victim = try #require(Self.chunkFiles(folder).first)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder + "/" + victim))
        let third = try await RawHTTP.get(port: port, path, headers: auth)
        #expect(third.status == 200 && third.body == bytes)
        #expect(disk.damaged == 1)
        #expect(relay.uploadedBytes > uploaded && relay.uploadedBytes <= uploaded + Int64(RelayProtocol.chunkBytes),
                "one chunk refetched: \(relay.uploadedBytes - uploaded) bytes")

        upstream.cancel()
        await upstream.value
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
}

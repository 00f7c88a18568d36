import Foundation
import Logging
import PartyCluster
import PartyKit
import PartyClient
import PartyService
import Testing
import TestSupport

/// Media across a takeover: a guest streams the host's file through its party node (the host's relay
/// connection uploads it there); the node dies, and both the guest's media tunnel and the host's relay
/// follow the party to the node that took it over.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct ClusterMediaTests {
    /// Past what the guest can have read ahead from the dead node (its player reads 30 s ahead of the
    /// clock, and the party was at about a second; the file is ``length`` s of about 2 Mbit/s): bytes
    /// there come from the new node only.
    static let seekTarget = 100.0
    static let length = 120

    /// A file too big to be read ahead whole: `length` s of 640×360 MPEG-4 (cheap to encode) and a tone.
    static func makeMedia(in folder: String) async throws -> String {
        let file = folder + "/big.mp4"
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=10",
                                                           "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(length)",
                                                           "-c:v", "mpeg4", "-q:v", "2", "-g", "10", "-c:a", "aac", "-shortest", file])
        try #require(ffmpeg.status == 0, "ffmpeg made the test file: \(ffmpeg.standardError)")
        return file
    }
    /// Media seconds the guest's player must have read past its clock after the seek.
    static let readAhead = 2.0

    @Test func aStreamingGuestAndTheHostsRelayFollowThePartyToItsNewNode() async throws {
        let (a, b) = try await ClusterServeTests.twoNodes(lease: ClusterServeTests.killedOwnerLease)
        let party = TestDatabase.unique("media-takeover")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-media-\(UUID().uuidString)").path
        let empty = folder + "/guest", mine = folder + "/host"
        for made in [empty, mine] { try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try await Self.makeMedia(in: mine)
        let config = PartyConfig(items: [MediaItem(title: "big.mp4", identity: try MediaIdentification.identify(file: file))])

        let hostNotices = TestMembers.Notices(), guestNotices = TestMembers.Notices()
        let link = a.link(party, key: ClusterServeTests.key)
        let host = TestMembers.member(link, name: "Hana", create: config, notices: hostNotices, folders: [mine])
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        let relay = Task {
            await MediaUpstream(link: link, files: [0: file], seat: { await host.seatToken },
                                node: host.node, logger: Logger(label: "test.relay")).run()
        }
        // No copy in the guest's folder: it streams the host's file from the party's node.
        let guest = TestMembers.member(link, name: "Gus", notices: guestNotices, folders: [empty])
        let guestRun = Task { await guest.run() }
        do {
            try await waitUntil("the guest streams from a and is synced", within: .seconds(60), every: .milliseconds(100)) {
                await guest.status.synced && a.server.media.servedBytes > 0
            }
        } catch {
            let g = await guest.status
            print("guest: \(guestNotices.all) synced=\(g.synced) position=\(String(describing: g.position)) served=\(a.server.media.servedBytes)")
            throw error
        }
        #expect(guestNotices.all.contains { $0.contains("streaming it from the party") }, "\(guestNotices.all)")
        await host.request(.play)
        try await waitUntil("the party plays", within: .seconds(60), every: .milliseconds(100)) { await (guest.status.position ?? 0) > 0.5 }

        await a.kill()
        try await waitUntil("both members welcomed again (by b)", within: ClusterServeTests.recoveryBound, every: .milliseconds(100)) {
            ClusterServeTests.welcomes(hostNotices) == 2 && ClusterServeTests.welcomes(guestNotices) == 2
        }
        // A seek past what the guest read from a: the bytes can only come from b, relayed by the host.
        await host.request(.seek, value: Self.seekTarget)
        // The player's clock runs whether bytes come or not: what it has read past it says they came.
        try await waitUntil("the guest plays on from b past the seek, bytes read ahead", within: .seconds(30), every: .milliseconds(100)) {
            let g = await guest.status
            guard g.synced, g.playing, (g.position ?? 0) > Self.seekTarget + 0.5, let buffer = await guest.currentPlayer?.buffer else {
                return false
            }
            return !buffer.starved && buffer.readAhead > Self.readAhead
        }
        #expect(b.server.media.servedBytes > 0)
        #expect(b.server.media.relay.uploadedBytes > 0, "the host's relay followed the party to b")
        #expect(!guestNotices.all.contains { $0.contains("could not be opened") }, "\(guestNotices.all)")

        relay.cancel()
        await relay.value
        await ClusterServeTests.leave(guest, guestRun, then: host, hostRun)
        await host.shutDown()
        await guest.shutDown()
        await b.stop()
    }
}

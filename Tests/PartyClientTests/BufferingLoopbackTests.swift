import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Testing
import TestSupport

/// Buffering on real sockets: a guest whose media path crawls (a throttling proxy between it and
/// the party's media endpoint) runs dry, and the party waits for it, then goes on; the other guest,
/// streaming on a healthy link, never stalls; the slow guest rejoins once its link recovers.
@Suite(.serialized) struct BufferingLoopbackTests {
    /// Free bytes before the throttle bites: the file's index (20 KiB of moov) and a few seconds of
    /// media, so the slow guest joins quickly and then plays through what it has.
    static let burst = 64 * 1024
    /// Well under the file's 8.7 KB/s (69 kbit/s): the slow guest cannot keep up.
    static let throttledRate = 1500
    static let stallWait = 1.5

    @Test func aThrottledGuestBuffersThePartyWaitsThenGoesOnAndItCatchesUp() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let party = "slow-link"
        let link = PartyLink(host: "127.0.0.1", port: port, party: party, key: "k", insecure: true)
        server.media.serve(party: party, key: "k", files: [0: PartyLoopbackTests.media + "/party.mp4"])
        let proxy = try ThrottlingProxy(target: port, burst: Self.burst, bytesPerSecond: Self.throttledRate)
        defer { proxy.close() }
        let slowLink = PartyLink(host: "127.0.0.1", port: proxy.port, party: party, key: "k", insecure: true)

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        func guest(_ link: PartyLink, _ name: String, _ notices: PartyLoopbackTests.Notices) -> PartyMember {
            PartyMember(options: .init(link: link, name: name, mediaFolders: [empty.path],
                                       playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                       logger: Logger(label: "test")), notices: { notices.add($0) })
        }
        let hostNotices = PartyLoopbackTests.Notices(), annNotices = PartyLoopbackTests.Notices(), gusNotices = PartyLoopbackTests.Notices()
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")],
                                                                                     stallWaitSeconds: Self.stallWait), notices: hostNotices)
        let ann = guest(link, "Ann", annNotices)
        let gus = guest(slowLink, "Gus", gusNotices)
        let runs = [Task { await host.run() }]
        #expect(await eventually { await host.status.me != nil })
        let guestRuns = [Task { await ann.run() }, Task { await gus.run() }]
        #expect(await eventually(within: 30) {
            let annSynced = await ann.status.synced
            return annSynced ? await gus.status.synced : false
        }, "both guests join")
        #expect(gusNotices.all.contains("party.mp4: no copy here, streaming it from the party"))

        await host.request(.play)
        // Gus plays through what the burst gave it, runs dry, and the party waits for it…
        #expect(await eventually(within: 60) { hostNotices.all.contains("waiting for Gus (buffering)") },
                "host heard: \(hostNotices.all)")
        #expect(await eventually { annNotices.all.contains("waiting for Gus (buffering)") }, "every member is told")
        #expect(await eventually { gusNotices.all.contains("waiting for Gus (buffering)") })
        #expect(await eventually(within: 30) { hostNotices.all.contains("Gus buffering") })
        // …for at most the stall wait, then goes on without it (Gus still crawling).
        #expect(await eventually(within: 30) { hostNotices.all.contains("went on without the stalled participant") })
        #expect(await gus.status.synced == false, "still buffering")
        let wentOnAt = await host.status.position ?? 0
        #expect(await eventually(within: 30) { (await host.status.position ?? 0) > wentOnAt + 1 }, "the party plays on")
        #expect(proxy.throttled > 0, "the throttle was in force")

        // The link recovers: Gus refills, seeks to where the party is, and follows it again.
        proxy.lift()
        #expect(await eventually(within: 60) { await gus.status.synced }, "gus heard: \(gusNotices.all)")
        #expect(await eventually(within: 30) {
            await host.status.participants.first { $0.name == "Gus" }?.presence?.state == .watching
        })
        guard let a = await host.currentPlayer, let b = await gus.currentPlayer else {
            Issue.record("no players")
            return
        }
        #expect(await eventually(within: 30) {
            let now = MonotonicTimeSource().now()
            return abs(a.clock.position(at: now) - b.clock.position(at: now)) < 0.02
        }, "Gus caught up with the party")

        // Ann, on a healthy link, never stalled nor buffered, and nobody waited for her.
        let all = hostNotices.all + gusNotices.all
        #expect(!all.contains { $0.hasPrefix("Ann stalled") || $0.hasPrefix("Ann buffering") || $0.contains("waiting for Ann") }, "\(all)")
        #expect(!all.contains { $0.contains("waiting for Hana") })

        for member in [ann, gus, host] { await member.leave() }
        for run in guestRuns + runs { _ = await run.value }
        for member in [ann, gus, host] { await member.shutDown() }
        await server.stop()
    }
}

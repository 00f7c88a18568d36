import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Testing
import TestSupport

/// A member that cannot play the party's item says so, everyone hears it, and nobody waits for it.
@Suite(.serialized) struct PresenceLoopbackTests {
    @Test func aGuestThatCannotPlayIsListedSoAndThePartyGoesOn() async throws {
        // A server that serves no media (the host's files stay with the host): a guest without a
        // copy cannot stream the item.
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "nomedia", key: "k", insecure: true)
        let hostNotices = PartyLoopbackTests.Notices(), guestNotices = PartyLoopbackTests.Notices()
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: hostNotices)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let guest = PartyMember(options: .init(link: link, name: "Gus", mediaFolders: [empty.path],
                                               playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                               logger: Logger(label: "test")), notices: { guestNotices.add($0) })
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let guestRun = Task { await guest.run() }
        #expect(await eventually(within: 30) { hostNotices.all.contains { $0.hasPrefix("Gus can't play item 1: ") } },
                "host heard: \(hostNotices.all)")
        #expect(guestNotices.all.contains("party.mp4: no copy here, streaming it from the party"))
        let gus = await host.status.participants.first { $0.name == "Gus" }
        #expect(gus?.presence?.state == .unavailable)
        #expect(gus?.presence?.problem?.contains("404") == true, "\(String(describing: gus?.presence))")
        #expect(await guest.status.synced == false, "a member that cannot play is not watching")
        // The party plays on: the host is not held for Gus.
        await host.request(.play)
        #expect(await eventually { (await host.status.position ?? 0) > 0.5 })
        await guest.leave()
        _ = await guestRun.value
        await host.leave()
        _ = await hostRun.value
        await guest.shutDown()
        await host.shutDown()
        await server.stop()
    }
}

import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import WebSocketTransport
import PlayerCore
import Synchronization
import Testing
import TestSupport

/// A real server, host and participant on loopback sockets, with real players.
@Suite(.serialized) struct PartyLoopbackTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets").path

    final class Notices: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ n: PartyNotice) { lines.withLock { $0.append(n.text) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func member(_ link: PartyLink, name: String, create: PartyConfig? = nil, notices: Notices) -> PartyMember {
        PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: [media],
                                   playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                   logger: Logger(label: "test")), notices: { notices.add($0) })
    }

    /// A party item for a file of the test media (or of `folder`), with its real identity.
    static func item(_ name: String, in folder: String = media) -> MediaItem {
        MediaItem(title: name, identity: try! MediaIdentification.identify(file: folder + "/" + name))
    }

    @Test func hostAndParticipantPlayTheSameThingAtTheSameInstant() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "loop", key: "k", insecure: true)
        let hostNotices = Notices(), guestNotices = Notices()
        let host = Self.member(link, name: "Hana", create: PartyConfig(items: [Self.item("party.mp4")]), notices: hostNotices)
        let guest = Self.member(link, name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.status.synced })
        #expect(hostNotices.all.contains("Gus joined the party"))
        await host.request(.play)
        #expect(await eventually {
            let s = await guest.status
            return s.playing && (s.position ?? 0) > 1
        })
        // Both players, read on this machine's one monotonic clock, agree (a loaded machine delays
        // the first clock exchanges, so allow the controller to converge).
        guard let a = await host.currentPlayer, let b = await guest.currentPlayer else { Issue.record("no players: host \(await host.currentPlayer == nil ? "none" : "yes") guest \(await guest.currentPlayer == nil ? "none" : "yes") \(await guest.status)"); return }
        #expect(await eventually(within: 30) {
            let now = MonotonicTimeSource().now()
            return abs(a.clock.position(at: now) - b.clock.position(at: now)) < 0.005
        })
        // A participant may not pause a host-controlled party.
        await guest.request(.pause)
        #expect(await eventually { guestNotices.all.contains { $0.contains("only the host can pause") } })
        await guest.leave()
        #expect(await guestRun.value == .left)
        #expect(await eventually { hostNotices.all.contains { $0.hasPrefix("Gus left") } })
        await host.leave()
        #expect(await hostRun.value == .left)
        await host.shutDown()
        await guest.shutDown()
        await server.stop()
    }

    @Test func wrongKeyUnknownPartyAndNoServerFailClearly() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let notices = Notices()
        let host = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "p", key: "right", insecure: true), name: "h",
                               create: PartyConfig(items: [Self.item("party.mp4")]), notices: notices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })

        let wrong = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "p", key: "wrong", insecure: true), name: "x", notices: notices)
        guard case .failed(let reason) = await wrong.run() else { Issue.record("wrong key joined"); return }
        #expect(reason.contains("wrong key"))

        let unknown = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "nope", key: "k", insecure: true), name: "x", notices: notices)
        guard case .failed(let why) = await unknown.run() else { Issue.record("unknown party joined"); return }
        #expect(why.contains("no party"))

        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()

        let refused = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "p", key: "k", insecure: true), name: "x", notices: notices)
        guard case .failed(let message) = await refused.run() else { Issue.record("joined a stopped server"); return }
        #expect(message.contains("127.0.0.1:\(port)"))
    }

    @Test func aGarbageClientIsDroppedAndThePartyGoesOn() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let notices = Notices()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "g", key: "k", insecure: true)
        let host = Self.member(link, name: "h", create: PartyConfig(items: [Self.item("party.mp4")]), notices: notices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.synced })
        let rogue = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/g", logger: Logger(label: "test"))
        rogue.send("{\"type\": \"hello\", \"version\": 99, \"party\": \"g\", \"key\": \"k\", \"name\": \"r\"}")
        var replies: [String] = []
        for await message in rogue.inbound { replies.append(message.text) }
        #expect(replies.first?.contains("versionMismatch") == true)
        let garbage = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/g", logger: Logger(label: "test"))
        garbage.send("not json at all")
        var garbageReplies: [String] = []
        for await message in garbage.inbound { garbageReplies.append(message.text) }
        #expect(garbageReplies.first?.contains("badMessage") == true)
        await host.request(.play)
        #expect(await eventually { await host.status.playing })
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }

    @Test func afterAServerRestartTheHostRecreatesThePartyAndEveryoneComesBack() async throws {
        // A port the second server can listen on again: outside the range other tests' servers and
        // connections get theirs from.
        let first = PartyServerRunner(host: "127.0.0.1", port: try LoopbackPort.free(), logger: Logger(label: "test"))
        let port = try await first.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "again", key: "k", insecure: true)
        let notices = Notices()
        let host = Self.member(link, name: "Hana", create: PartyConfig(items: [Self.item("party.mp4")]), notices: notices)
        let guest = Self.member(link, name: "Gus", notices: notices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.status.synced })
        await host.request(.play)
        #expect(await eventually { await guest.status.playing })
        await first.stop()
        #expect(await eventually { !(await guest.status.connected) })
        let second = PartyServerRunner(host: "127.0.0.1", port: port, logger: Logger(label: "test"))
        _ = try await second.start()
        // The host re-creates the party where it was; the guest's resumed hello finds it.
        #expect(await eventually(within: 30) {
            let h = await host.status, g = await guest.status
            return h.connected && g.connected && h.synced && g.synced && g.playing && g.participants.count == 2
        })
        guard let a = await host.currentPlayer, let b = await guest.currentPlayer else { Issue.record("no players: host \(await host.currentPlayer == nil ? "none" : "yes") guest \(await guest.currentPlayer == nil ? "none" : "yes") \(await guest.status)"); return }
        #expect(await eventually(within: 30) {
            let now = MonotonicTimeSource().now()
            return abs(a.clock.position(at: now) - b.clock.position(at: now)) < 0.01
        })
        await guest.leave()
        await host.leave()
        _ = await guestRun.value
        _ = await hostRun.value
        await host.shutDown()
        await guest.shutDown()
        await second.stop()
    }
}

/// A story party: the host's navigation is a scheduled command, and each member's navigator
/// follows it with at most two players alive.
@Suite(.serialized) struct StoryPartyTests {
    @Test func participantsFollowTheHostsStoriesWithTwoPlayersAtMost() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "stories", key: "k", insecure: true)
        // Three one-minute stories (links to the party clip), so none ends while a loaded machine converges.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-stories-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = ["one.mp4", "two.mp4", "three.mp4"]
        for item in items {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(item).path,
                                                       withDestinationPath: PartyLoopbackTests.media + "/party.mp4")
        }
        func member(_ name: String, create: PartyConfig? = nil, notices: PartyLoopbackTests.Notices) -> PartyMember {
            PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: [folder.path],
                                       playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                       logger: Logger(label: "test")), notices: { notices.add($0) })
        }
        let hostNotices = PartyLoopbackTests.Notices(), guestNotices = PartyLoopbackTests.Notices()
        let host = member("Hana", create: PartyConfig(items: items.map { PartyLoopbackTests.item($0, in: folder.path) }), notices: hostNotices)
        let guest = member("Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.status.synced })
        await host.request(.play)
        #expect(await eventually { (await guest.status.position ?? 0) > 0.3 })

        for item in [1, 2, 0] {
            await host.request(.item, value: Double(item))
            #expect(await eventually {
                let (g, h) = (await guest.currentItem, await host.currentItem)
                return g == item && h == item
            },
                    "both members show item \(item)")
            guard let a = await host.currentPlayer, let b = await guest.currentPlayer else { Issue.record("no players: host \(await host.currentPlayer == nil ? "none" : "yes") guest \(await guest.currentPlayer == nil ? "none" : "yes") \(await guest.status)"); return }
            #expect(a.url.hasSuffix(items[item]) && b.url.hasSuffix(items[item]))
            let inSync = await eventually(within: 30) {
                let now = MonotonicTimeSource().now()
                return b.state == .playing && abs(a.clock.position(at: now) - b.clock.position(at: now)) < 0.01
            }
            let now = MonotonicTimeSource().now()
            #expect(inSync, "item \(item) plays in sync: \(b.state), off by \((a.clock.position(at: now) - b.clock.position(at: now)) * 1000) ms, host \(a.state); guest heard \(guestNotices.all.suffix(6)), host heard \(hostNotices.all.suffix(6))")
        }
        for member in [host, guest] {
            let census = try #require(await member.stories?.census)
            #expect(census.peakPlayers <= 2, "peak \(census.peakPlayers)")
            #expect(census.players == 1)
        }
        let refused = await guest.stories?.currentIndex
        await guest.request(.item, value: 2)
        #expect(await eventually { guestNotices.all.contains { $0.contains("only the host") } })
        #expect(await guest.stories?.currentIndex == refused)

        await guest.leave()
        _ = await guestRun.value
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await guest.shutDown()
        #expect(await host.stories == nil)
        await server.stop()
    }
}

import Foundation
import TestSupport
import Logging
import NIOSSL
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Synchronization
import SyncplayKit
@testable import SyncplayGateway
@testable import SyncplayClient

/// A Tandem party on loopback for the gateway's tests: a real party server (plain), a real host
/// member playing assets/party.mp4 headless, and the Syncplay gateway in front of the server.
struct GatewayParty: Sendable {
    static let key = "party-key-123"

    let server: PartyServerRunner
    let gateway: SyncplayGatewayServer
    let host: PartyMember
    let hostRun: Task<PartyMember.Outcome, Never>
    let party: String
    let notices: Notices

    /// What the host is told, for assertions.
    final class Notices: Sendable {
        private let list = Mutex<[PartyNotice]>([])
        func append(_ notice: PartyNotice) { list.withLock { $0.append(notice) } }
        var all: [PartyNotice] { list.withLock { $0 } }
        /// The reasons of the timelines the host heard ("amy (Syncplay): pause").
        var timelineReasons: [String] { all.compactMap { if case .timeline(_, let reason) = $0 { reason } else { nil } } }
    }

    /// `tls`: the gateway's STARTTLS identity (nil: it declines STARTTLS); `partyGrace`: the
    /// gateway's ``SyncplayRestartGrace`` (0: an unknown room is an `Error` at once).
    /// `restartable`: the server and gateway listen on ports (``LoopbackPort/free()``) they can listen
    /// on again after a restart, not on ports the kernel picks.
    static func start(party: String = "p\(UInt32.random(in: 0...UInt32.max))", control: ControlPolicy,
                      tls: NIOSSLContext? = nil, partyGrace: Double = SyncplayRestartGrace.standardLength,
                      restartable: Bool = false) async throws -> GatewayParty {
        let server = PartyServerRunner(host: "127.0.0.1", port: restartable ? try LoopbackPort.free() : 0, logger: Fixtures.quietLogger)
        let port = try await server.start()
        let gateway = try await SyncplayGatewayServer.start(host: "127.0.0.1", port: restartable ? try LoopbackPort.free() : 0,
                                                             parties: server, tls: tls, partyGrace: partyGrace,
                                                             logger: Fixtures.quietLogger)
        let notices = Notices()
        let link = PartyLink(host: "127.0.0.1", port: port, party: party, key: key, insecure: true)
        let item = MediaItem(title: "party.mp4", identity: try MediaIdentification.identify(file: Fixtures.partyFile))
        let host = PartyMember(options: .init(link: link, name: "Hana", create: PartyConfig(items: [item], control: control),
                                              mediaFolders: [Fixtures.assets], playerOptions: { _ in Fixtures.headless() },
                                              logger: Fixtures.quietLogger), notices: { notices.append($0) })
        let hostRun = Task { await host.run() }
        try await waitUntil("the host to create the party", within: SyncplayRealServerTests.startBound) {
            let joined = await host.status.me != nil
            let player = await host.currentPlayer
            return joined && player != nil
        }
        return GatewayParty(server: server, gateway: gateway, host: host, hostRun: hostRun, party: party, notices: notices)
    }

    /// The names in the host's participant list.
    func names() async -> [String] { await host.status.participants.map(\.name) }

    /// Where the host's player is, and whether it plays.
    func hostPlayer() async -> (position: Double, playing: Bool)? {
        guard let player = await host.currentPlayer else { return nil }
        return (player.position, player.state == .playing)
    }

    func stop() async {
        await gateway.stop()
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
}

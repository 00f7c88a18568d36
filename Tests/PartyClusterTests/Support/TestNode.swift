import Foundation
import Logging
import PartyCluster
import PartyKit
import PartyServer
import PartyClient
import PartyService
import PlayerCore
import Synchronization
import Testing

/// One `tandem serve --cluster` node in this process: a party server on loopback (plain ws) joined to
/// the test database's directory. ``kill()`` stops it as SIGKILL would for the directory: its leases
/// are not released (they run out); ``stop()`` drains it as SIGTERM does.
final class TestNode: Sendable {
    let server: PartyServerRunner
    let port: Int
    let name: String
    private let cluster: Mutex<ClusterNode?> = Mutex(nil)
    private let running: Mutex<Task<Void, any Error>?> = Mutex(nil)
    private let release = AsyncStream<Bool>.makeStream()

    var node: ClusterNode { cluster.withLock { $0! } }
    var address: NodeAddress { NodeAddress(host: "127.0.0.1", port: port) }

    private init(server: PartyServerRunner, port: Int, name: String) {
        self.server = server
        self.port = port
        self.name = name
    }

    /// Starts a node; it has joined the cluster when this returns.
    static func start(_ name: String, lease: Duration) async throws -> TestNode {
        let url = try #require(TestDatabase.url)
        var logger = Logger(label: "test.\(name)")
        logger.logLevel = ProcessInfo.processInfo.environment["TANDEM_TEST_CLUSTER_LOG"] == nil ? .warning : .info
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: logger)
        let port = try await server.start()
        let node = TestNode(server: server, port: port, name: name)
        let joined = AsyncStream<Void>.makeStream()
        let task = Task {
            // A node that cannot join (the database unreachable) ends the wait below with its error.
            defer { joined.continuation.finish() }
            try await ClusterNode.run(url: url, nodeID: TestDatabase.unique(name), address: node.address, leaseLength: lease,
                                      logger: logger) { cluster in
                await server.joinCluster(cluster)
                node.cluster.withLock { $0 = cluster }
                joined.continuation.yield()
                for await drain in node.release.stream {
                    if drain { await server.drainCluster() }
                    break
                }
            }
        }
        node.running.withLock { $0 = task }
        var didJoin = false
        for await _ in joined.stream {
            didJoin = true
            break
        }
        guard didJoin else {
            await server.stop()
            try await task.value
            throw NotJoined(name: name)
        }
        return node
    }

    /// Dies without a word to the directory: its leases run out by themselves.
    func kill() async {
        release.continuation.yield(false)
        _ = try? await running.withLock { $0 }?.value
        await server.stop()
    }

    /// Drains (saves and releases its parties, redirects members) and stops.
    func stop() async {
        release.continuation.yield(true)
        _ = try? await running.withLock { $0 }?.value
        await server.stop()
    }

    /// A node whose cluster run ended before it joined, without an error.
    struct NotJoined: Error, CustomStringConvertible {
        let name: String
        var description: String { "node \(name) did not join the cluster" }
    }

    func link(_ party: String, key: String) -> PartyLink {
        PartyLink(host: "127.0.0.1", port: port, party: party, key: key, insecure: true)
    }
}

/// Members on real players, as the loopback tests make them.
enum TestMembers {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets").path

    final class Notices: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ n: PartyNotice) { lines.withLock { $0.append(n.text) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func member(_ link: PartyLink, name: String, create: PartyConfig? = nil, notices: Notices = Notices(),
                       folders: [String] = [media]) -> PartyMember {
        var logger = Logger(label: "test.\(name)")
        logger.logLevel = ProcessInfo.processInfo.environment["TANDEM_TEST_CLUSTER_LOG"] == nil ? .warning : .info
        return PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: folders,
                                          playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                          logger: logger), notices: { notices.add($0) })
    }

    static func config() throws -> PartyConfig {
        PartyConfig(items: [MediaItem(title: "party.mp4", identity: try MediaIdentification.identify(file: media + "/party.mp4"))])
    }
}

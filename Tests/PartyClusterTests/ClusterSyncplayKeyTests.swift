import Logging
import PartyKit

import SyncplayGateway
import Testing
import WebSocketTransport

/// A cluster node counts wrong keys per address once for every way in: Tandem hellos for parties it
/// holds or that live elsewhere (the directory finds those wrong), and Syncplay passwords at its
/// gateway. A guesser gains no tries by switching protocol, party or node role. Against the test
/// PostgreSQL, with a Syncplay client's line protocol over loopback.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct ClusterSyncplayKeyTests {
    static let key = ClusterServeTests.key
    static let limit = WrongKeyLimiter.Policy.standard.limit
    static let refusal = "too many wrong keys from this address"

    /// A raw Tandem member at `node`: its hello, and the server's one answer to it (a welcome, or an
    /// error before the close). The connection stays open (a host keeps its party).
    static func hello(_ node: TestNode, party: String, key: String = key, create: Bool) async throws
        -> (connection: WebSocketConnection, answer: PartyMessage?) {
        let connection = try await WebSocketClient.connect(host: "127.0.0.1", port: node.port, path: "/party/\(party)",
                                                           logger: Logger(label: "test.raw"))
        connection.send(PartyProtocol.encode(.hello(Hello(party: party, key: key, name: "raw",
                                                          create: create ? try TestMembers.config() : nil))))
        var replies = connection.inbound.makeAsyncIterator()
        return (connection, try? PartyProtocol.decode(await replies.next()?.text ?? ""))
    }

    /// Two nodes, a party on each (hosted by raw members), and a Syncplay gateway in front of `b`.
    static func setUp() async throws -> (a: TestNode, b: TestNode, gateway: SyncplayGatewayServer, here: String, elsewhere: String,
                                         hosts: [WebSocketConnection]) {
        let (a, b) = try await ClusterServeTests.twoNodes(lease: TestDatabase.steadyLease)
        let gateway = try await SyncplayGatewayServer.start(host: "127.0.0.1", port: 0, parties: b.server, logger: Logger(label: "test.gateway"))
        let here = TestDatabase.unique("here"), elsewhere = TestDatabase.unique("elsewhere")
        let hostA = try await hello(a, party: elsewhere, create: true)
        let hostB = try await hello(b, party: here, create: true)
        guard case .welcome? = hostA.answer, case .welcome? = hostB.answer else {
            Issue.record("the hosts were not welcomed: \(String(describing: hostA.answer)), \(String(describing: hostB.answer))")
            throw CancellationError()
        }
        return (a, b, gateway, here, elsewhere, [hostA.connection, hostB.connection])
    }

    static func tearDown(_ a: TestNode, _ b: TestNode, _ gateway: SyncplayGatewayServer, _ hosts: [WebSocketConnection]) async {
        for host in hosts { host.close() }
        await gateway.stop()
        await a.stop()
        await b.stop()
    }

    /// Wrong keys a node found in the directory (Tandem hellos for a party it does not hold) count
    /// against Syncplay clients from that address at its gateway: refused, for a party it holds and
    /// for one it does not.
    @Test func wrongHellosAtANodeCountAgainstSyncplayThere() async throws {
        let (a, b, gateway, here, elsewhere, hosts) = try await Self.setUp()
        // Before any miss, the right password joins.
        let joined = try await SyncplayLineClient.hello(port: gateway.port, room: here, password: Self.key)
        #expect(joined?.hasPrefix(#"{"Hello""#) == true, "\(joined ?? "closed")")

        for attempt in 0..<Self.limit {
            // A creating hello: b asks the directory, which finds the key wrong (no redirect to a).
            let guess = try await Self.hello(b, party: elsewhere, key: "WRONGKEYWRONGKEY\(attempt)", create: true)
            guard case .error(let error)? = guess.answer else { Issue.record("guess \(attempt): \(String(describing: guess.answer))"); break }
            #expect(error.code == .wrongKey && error.message.contains("wrong key for party"), "\(error)")
        }
        let refusedHere = try await SyncplayLineClient.hello(port: gateway.port, room: here, password: Self.key)
        #expect(refusedHere?.contains(Self.refusal) == true, "\(refusedHere ?? "closed")")
        let refusedElsewhere = try await SyncplayLineClient.hello(port: gateway.port, room: elsewhere, password: Self.key)
        #expect(refusedElsewhere?.contains(Self.refusal) == true, "\(refusedElsewhere ?? "closed")")
        await Self.tearDown(a, b, gateway, hosts)
    }

    /// Wrong Syncplay passwords at a node's gateway count against Tandem hellos from that address for
    /// a party the node does not hold: refused there, not sent on to the owner.
    @Test func wrongSyncplayPasswordsAtANodeCountAgainstHellosForPartiesElsewhere() async throws {
        let (a, b, gateway, here, elsewhere, hosts) = try await Self.setUp()
        // Before any miss, a hello at b for a's party is redirected there.
        let before = try await Self.hello(b, party: elsewhere, create: false)
        guard case .error(let redirect)? = before.answer else { Issue.record("\(String(describing: before.answer))"); return }
        #expect(redirect.code == .redirect, "\(redirect)")

        for attempt in 0..<Self.limit {
            let wrong = try await SyncplayLineClient.hello(port: gateway.port, room: here, password: "guess \(attempt)")
            #expect(wrong?.contains("Wrong password supplied") == true, "\(wrong ?? "closed")")
        }
        let after = try await Self.hello(b, party: elsewhere, create: false)
        guard case .error(let refused)? = after.answer else { Issue.record("\(String(describing: after.answer))"); return }
        #expect(refused.code == .wrongKey && refused.message.contains(Self.refusal), "\(refused)")
        await Self.tearDown(a, b, gateway, hosts)
    }
}

import Testing
@testable import PartyKit

/// Protocol 4's cluster parts: node addresses, redirects and the welcome's list of live nodes.
@Suite struct ClusterRedirectTests {
    static let fp = String(repeating: "A", count: 43)

    @Test func nodeAddressesRoundTrip() {
        for address in [NodeAddress(host: "node-a.example", port: 7443, fingerprint: Self.fp),
                        NodeAddress(host: "::1", port: 7777), NodeAddress(host: "127.0.0.1", port: 1)] {
            #expect(NodeAddress(parsing: address.description) == address)
        }
        #expect(NodeAddress(parsing: "[::1]:7777")?.host == "::1")
        for bad in ["node", "node:0", "node:70000", ":7777", "node:7777#short", "node:x"] {
            #expect(NodeAddress(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func aRedirectSurvivesTheWireAndIsFollowedNotFatal() throws {
        let to = NodeAddress(host: "10.0.0.2", port: 7443, fingerprint: Self.fp)
        let message = PartyMessage.error(ErrorMessage(code: .redirect, message: "party \"p\" is served by 10.0.0.2:7443", redirect: to))
        #expect(try PartyProtocol.decode(PartyProtocol.encode(message)) == message)
        var core = ParticipantCore(hello: Hello(party: "p", key: "k", name: "Gus"))
        _ = core.start(now: 0)
        #expect(core.receive(message, now: 1) == [.redirect(to)])
        #expect(!core.ended)
        // The same hello goes to the new node.
        #expect(core.start(now: 2) == [.send(.hello(Hello(party: "p", key: "k", name: "Gus")))])
    }

    @Test func aWelcomeListsTheLiveNodesForLater() throws {
        let nodes = [NodeAddress(host: "a", port: 1), NodeAddress(host: "b", port: 2)]
        let welcome = Welcome(party: "p", you: ParticipantInfo(id: "p2", name: "Gus", role: .participant, joinedAt: 0), token: "t",
                              config: PartyConfig(items: ["m"]), participants: [], timeline: Timeline(epoch: 3), chat: [],
                              serverTime: 0, nodes: nodes)
        #expect(try PartyProtocol.decode(PartyProtocol.encode(.welcome(welcome))) == .welcome(welcome))
        var core = ParticipantCore(hello: Hello(party: "p", key: "k", name: "Gus"))
        _ = core.start(now: 0)
        _ = core.receive(.welcome(welcome), now: 1)
        #expect(core.nodes == nodes)
    }
}

import Testing
@testable import PartyKit

/// Drives a `PartyServerCore` with fake connection ids, passing every message through the wire
/// format both ways, and keeps what it sent for inspection.
final class ServerHarness {
    typealias Output = PartyServerCore.Output

    var core: PartyServerCore
    let party = "brave-otter-42"
    let key = "s3cret"
    /// Everything output so far, in order.
    private(set) var outputs: [Output] = []

    init() { core = PartyServerCore() }

    // MARK: Events

    @discardableResult
    func connect(_ id: Int, at now: Double) -> [Output] { record(core.connected(id, now: now)) }

    @discardableResult
    func disconnect(_ id: Int, at now: Double) -> [Output] { record(core.disconnected(id, now: now)) }

    @discardableResult
    func send(_ id: Int, _ message: PartyMessage, at now: Double) -> [Output] {
        record(core.received(id, text: PartyProtocol.encode(message), now: now))
    }

    @discardableResult
    func sendText(_ id: Int, _ text: String, at now: Double) -> [Output] { record(core.received(id, text: text, now: now)) }

    @discardableResult
    func tick(at now: Double) -> [Output] { record(core.tick(now: now)) }

    private func record(_ out: [Output]) -> [Output] {
        // Whatever the server sends must survive the wire.
        for case .send(_, let message) in out {
            if (try? PartyProtocol.decode(PartyProtocol.encode(message))) != message {
                Issue.record("the server sent a message that does not survive the wire: \(message)")
            }
        }
        outputs += out
        return out
    }

    // MARK: Set-ups

    func hello(name: String, create: PartyConfig? = nil, resume: String? = nil, key: String? = nil,
               party: String? = nil, version: Int = PartyProtocol.version) -> PartyMessage {
        .hello(Hello(version: version, party: party ?? self.party, key: key ?? self.key, name: name, create: create, resume: resume))
    }

    /// Connects and says hello; returns the welcome.
    @discardableResult
    func join(_ id: Int, name: String, create: PartyConfig? = nil, resume: String? = nil, at now: Double) -> Welcome? {
        connect(id, at: now)
        return send(id, hello(name: name, create: create, resume: resume), at: now).welcome(to: id)
    }

    /// A party with host Alice on connection 1 (t = 0) and Bob on 2 (t = 1), optionally Carol on 3 (t = 2).
    func standardParty(_ config: PartyConfig = PartyConfig(items: ["movie.mp4", "extra.mkv"]), carol: Bool = false) {
        join(1, name: "Alice", create: config, at: 0)
        join(2, name: "Bob", at: 1)
        if carol { join(3, name: "Carol", at: 2) }
    }
}

extension Array where Element == PartyServerCore.Output {
    /// Messages sent to one connection, in order.
    func messages(to id: Int) -> [PartyMessage] {
        compactMap { if case .send(id, let m) = $0 { m } else { nil } }
    }

    /// Connections that got `message`.
    func recipients(of message: PartyMessage) -> Set<Int> {
        Set(compactMap { if case .send(let id, message) = $0 { id } else { nil } })
    }

    var allSent: [(Int, PartyMessage)] { compactMap { if case .send(let id, let m) = $0 { (id, m) } else { nil } } }
    var closed: [Int] { compactMap { if case .close(let id, _) = $0 { id } else { nil } } }
    var logs: [String] { compactMap { if case .log(let line) = $0 { line } else { nil } } }

    func welcome(to id: Int) -> Welcome? {
        for case .welcome(let w) in messages(to: id) { return w }
        return nil
    }

    func errors(to id: Int) -> [ErrorMessage] {
        messages(to: id).compactMap { if case .error(let e) = $0 { e } else { nil } }
    }

    /// The timelines broadcast, with who got each.
    var timelines: [Timeline] {
        var seen: [Timeline] = []
        for case .send(_, .timeline(let t)) in self where !seen.contains(t) { seen.append(t) }
        return seen
    }
}

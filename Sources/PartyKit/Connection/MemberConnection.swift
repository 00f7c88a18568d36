import Foundation

/// A member's connection to its party as a pure state machine: it dials the link's node, says hello,
/// follows redirects to the node of a cluster that serves the party, reconnects with back-off when the
/// connection is lost (to the next live node when its node cannot be reached), and gives up with a
/// message naming the server and the reason.
///
/// Fed named events (``Event``) — what the network did, what the server said, what the user asked,
/// time passing — it answers actions (``Action``) its driver carries out: dial, say hello, wait,
/// report, finish. It knows no sockets and no TLS (its targets are any ``DialTarget``), and nothing of
/// the party itself (``ParticipantCore``).
public struct MemberConnection<Target: DialTarget>: Sendable, Equatable {
    /// The first back-off wait's unit, doubled with every try lost in a row (so 0.2 s, 0.4 s …): a blip
    /// costs a fifth of a second.
    public static var backoffStart: Double { 0.1 }
    /// The longest back-off wait: a restarting server is back within seconds, and one hello every 5 s
    /// costs it nothing.
    public static var backoffMax: Double { 5 }
    /// The longest back-off wait in a cluster (the welcome listed other live nodes): there the wait is
    /// for a dead node's lease to run out at another node, not for one server to come back, so the
    /// member tries every second (one hello a second) instead of every 5 s.
    public static var clusterBackoffMax: Double { 1 }
    /// Seconds without reaching the server (dials failing, no word from it) after which a member that
    /// was in the party gives up: a restart or a cluster's takeover is over well within it, and a
    /// server away for longer is gone (docs/protocol.md, Reconnect).
    public static var reconnectGiveUp: Double { 60 }
    /// Redirects followed in a row, each to a node that answered, without a welcome: more is a loop
    /// (nodes disagreeing on the owner), not a party moving; a cluster settles a move in one or two.
    public static var maxRedirects: Int { 4 }

    /// Where the connection is (see ``State`` for its transitions).
    public private(set) var state: State
    /// The cluster's live nodes as last heard (the welcome's, or a later `nodes`): where the member
    /// goes when its node cannot be reached. Empty outside a cluster.
    public private(set) var nodes: [NodeAddress] = []

    /// A connection that has not started: ``Event/start`` dials `target` (the link's node).
    public init(target: Target) {
        state = .idle(target)
    }

    /// How it ended; nil until it has.
    public var outcome: Outcome? { state.outcome }

    /// Feeds one event; returns what the driver does now, in order. An event out of order in the
    /// current state changes nothing and asks for nothing, except that a connection nobody is dialling
    /// any more (``Event/dialled``) is closed.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .start: start()
        case .dialled: dialled()
        case .connectionFailed(let error, let now): connectionFailed(error, now: now)
        case .heard: heard()
        case .welcomed(let nodes): welcomed(nodes: nodes)
        case .nodesChanged(let nodes): nodesChanged(nodes)
        case .redirected(let node): redirected(to: node)
        case .closed(let reason, let now): closed(reason: reason, now: now)
        case .backoffElapsed: backoffElapsed()
        case .leaveRequested: finish(.left, connected: isConnected)
        case .partyEnded(let reason): isConnected ? finish(.ended(reason), connected: false) : []
        case .refused(let message): isConnected ? finish(.failed(message), connected: false) : []
        }
    }

    // MARK: Events

    private mutating func start() -> [Action] {
        guard case .idle(let target) = state else { return [] }
        state = .dialling(Leg(target: target, standing: .newcomer))
        return [.dial(target)]
    }

    private mutating func dialled() -> [Action] {
        switch state {
        case .dialling(let leg):
            state = .greeting(leg)
            return [leg.standing == .newcomer ? .sayHello : .sayHelloAgain]
        case .over(.left):
            // Left while the dial was under way: nobody wants this connection.
            return [.close(reason: "left")]
        default:
            return [.close(reason: "not dialled")]
        }
    }

    private mutating func connectionFailed(_ error: String, now: Double) -> [Action] {
        guard case .dialling(let leg) = state else { return [] }
        let server = "\(leg.target.address)"
        guard case .returning(let outage) = leg.standing else {
            return finish(.failed("cannot join \(server): \(error)"), connected: false)
        }
        let lost = Outage(failures: (outage?.failures ?? 0) + 1, since: outage?.since ?? now)
        if now - lost.since > Self.reconnectGiveUp {
            return finish(.failed("lost the party server \(server) for good: \(error)"), connected: false)
        }
        // A dead node: the next live node the member heard of (it takes the party over, or redirects
        // to the node that did). A failed dial ends a run of redirects.
        let next = leg.target.next(among: nodes) ?? leg.target
        return backOff(Leg(target: next, hops: 0, standing: .returning(lost)), lost)
    }

    private mutating func heard() -> [Action] {
        switch state {
        case .greeting(var leg):
            guard case .returning(.some) = leg.standing else { return [] }
            leg.standing = .returning(nil)
            state = .greeting(leg)
        case .redirected(var leg, let node):
            guard case .returning(.some) = leg.standing else { return [] }
            leg.standing = .returning(nil)
            state = .redirected(leg, to: node)
        default:
            break
        }
        return []
    }

    private mutating func welcomed(nodes listed: [NodeAddress]?) -> [Action] {
        switch state {
        case .greeting(let leg):
            if let listed { nodes = listed }
            state = .seated(leg.target)
            return [.seated(leg.target)]
        case .seated:
            if let listed { nodes = listed }
            return []
        default:
            return []
        }
    }

    private mutating func nodesChanged(_ listed: [NodeAddress]) -> [Action] {
        if isConnected { nodes = listed }
        return []
    }

    private mutating func redirected(to node: NodeAddress) -> [Action] {
        switch state {
        case .greeting(let leg), .redirected(let leg, _):
            state = .redirected(leg, to: node)
        case .seated(let target):
            state = .redirected(Leg(target: target, standing: .returning(nil)), to: node)
        default:
            return []
        }
        return [.close(reason: "redirected to \(node)")]
    }

    private mutating func closed(reason: String?, now: Double) -> [Action] {
        switch state {
        case .redirected(let leg, let node):
            let hops = leg.hops + 1
            if hops > Self.maxRedirects {
                return finish(.failed("redirected \(hops) times in a row without joining (last to \(node)): the cluster's nodes disagree on who serves the party"),
                              connected: false)
            }
            let target = leg.target.following(node)
            state = .dialling(Leg(target: target, hops: hops, standing: leg.standing))
            return [.report(.redirected(to: node)), .dial(target)]
        case .greeting(let leg):
            guard case .returning(let outage) = leg.standing else {
                return finish(.failed(reason.map { "the server closed the connection: \($0)" } ?? "the server closed the connection"),
                              connected: false)
            }
            return lost(leg, outage, now: now)
        case .seated(let target):
            return lost(Leg(target: target, standing: .returning(nil)), nil, now: now)
        default:
            return []
        }
    }

    private mutating func backoffElapsed() -> [Action] {
        guard case .backingOff(let leg, _) = state else { return [] }
        state = .dialling(leg)
        return [.dial(leg.target)]
    }

    // MARK: Steps

    /// Whether a connection is open (greeting, seated, or closing after a redirect).
    private var isConnected: Bool {
        switch state {
        case .greeting, .seated, .redirected: true
        default: false
        }
    }

    /// A connection to a node that had taken (or was taking back) the member was lost: the same node
    /// again, after a wait. Only a failed dial gives up: a node that lets the member in and drops it is
    /// there.
    private mutating func lost(_ leg: Leg, _ outage: Outage?, now: Double) -> [Action] {
        let lost = Outage(failures: (outage?.failures ?? 0) + 1, since: outage?.since ?? now)
        var leg = leg
        leg.standing = .returning(lost)
        return [.report(.connectionLost)] + backOff(leg, lost)
    }

    /// Waits before dialling the leg's target: doubling with each try lost, capped (lower in a cluster).
    private mutating func backOff(_ leg: Leg, _ outage: Outage) -> [Action] {
        let cap = nodes.count > 1 ? Self.clusterBackoffMax : Self.backoffMax
        let delay = min(Self.backoffStart * pow(2, Double(outage.failures)), cap)
        state = .backingOff(leg, delay: delay)
        return [.wait(delay)]
    }

    /// Over, for good; `connected`: the member leaves a connection that is open (it says bye).
    private mutating func finish(_ outcome: Outcome, connected: Bool) -> [Action] {
        if case .over = state { return [] }
        state = .over(outcome)
        return connected ? [.sayBye, .finish(outcome)] : [.finish(outcome)]
    }
}

import PartyKit

/// The runner's cluster state: which connections passed their hello, which hellos wait for the
/// directory, and what of each party this node owns was saved. A value the runner's actor owns;
/// its directory calls run in tasks that feed their results back (``PartyServerRunner``'s
/// `placed(_:_:)`), so a member's messages never wait on the database.
struct ClusterGate: Sendable {
    /// A message held until its party is placed.
    struct Held: Sendable {
        var connection: Int
        var text: String
        var receivedAt: Double?
        /// The transport's count of the second (``PartyServerCore/received(_:text:receivedAt:messagesThisSecond:now:)``).
        var messagesThisSecond: Int?
        /// The address its wrong keys count against (``PartyServerCore/source(of:)``), taken when it
        /// was held: a guesser that hangs up before the directory answers is counted all the same.
        var source: String?
    }

    /// What a placement is for: one party, one key (a wrong key must not decide for the right one).
    struct Request: Hashable, Sendable {
        var party: String
        var key: String
    }

    /// What was last saved of an owned party: its epoch and number of seats (a new seat's token must
    /// reach the directory too, or that member loses its seat in a takeover).
    struct Saved: Equatable, Sendable {
        var epoch: Int
        var seats: Int
    }

    /// Messages kept per waiting connection: its hello and what a reconnecting member sends before
    /// its welcome (statuses, pings, which it repeats). More are dropped, so a member cannot grow
    /// the queue while the directory is slow.
    static let maxHeldPerConnection = 32

    /// The directory; ``JoiningPlacement`` until the node has joined its cluster.
    var placement: any PartyPlacement
    /// Connections whose hello went to the core: their messages take the plain path.
    var admitted: Set<Int> = []
    /// Hellos (and whatever followed them) waiting for a placement, in arrival order.
    var waiting: [Request: [Held]] = [:]
    /// The request each held connection waits on.
    var waitingConnections: [Int: Request] = [:]
    /// Parties this node owns, and what of them was saved.
    var owned: [String: Saved] = [:]
    /// Set by a drain: no party is claimed here any more; hellos go to another node.
    var draining = false
    /// The live nodes last told to the members (``PartyProtocol`` 5's `nodes`); a change is sent on.
    var announcedNodes: [NodeAddress] = []
    /// The last save's number: saves run in tasks of their own and may reach the directory out of
    /// order; the directory keeps the highest (``PartyPlacement/save(party:image:partyClock:sequence:)``).
    var saveSequence = 0
    init(placement: any PartyPlacement) { self.placement = placement }

    /// Holds `held` behind `request`; true when it is the first for it (a placement must start).
    mutating func hold(_ held: Held, for request: Request) -> Bool {
        waitingConnections[held.connection] = request
        let first = waiting[request] == nil
        waiting[request, default: []].append(held)
        return first
    }

    /// Holds a further message of a connection that already waits (dropped past
    /// ``maxHeldPerConnection``); false when it does not wait.
    mutating func holdMore(_ held: Held) -> Bool {
        guard let request = waitingConnections[held.connection] else { return false }
        if waiting[request, default: []].count(where: { $0.connection == held.connection }) < Self.maxHeldPerConnection {
            waiting[request]?.append(held)
        }
        return true
    }

    /// The messages that waited for `request`, released.
    mutating func release(_ request: Request) -> [Held] {
        let held = waiting.removeValue(forKey: request) ?? []
        for h in held { waitingConnections[h.connection] = nil }
        return held
    }

    /// A connection went away.
    mutating func forget(_ connection: Int) {
        admitted.remove(connection)
        if let request = waitingConnections.removeValue(forKey: connection) {
            waiting[request]?.removeAll { $0.connection == connection }
        }
    }
}

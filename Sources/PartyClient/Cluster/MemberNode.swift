import Synchronization

/// The node a member is seated at now, for what must follow it: the guest's media tunnel and the
/// host's relay connection. Set when a node welcomes the member, cleared when its connection to that
/// node ends; so after a redirect or a takeover both reach the party's new node, and while the member
/// is between nodes they wait instead of dialling one that no longer serves the party.
///
/// Safe from any thread; the member (``PartyMember``) is its one writer.
public final class MemberNode: Sendable {
    private struct State {
        var node: ClusterTarget?
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state: Mutex<State>

    init(_ node: ClusterTarget?) { state = Mutex(State(node: node)) }

    /// The node seating the member now; nil between nodes.
    public var current: ClusterTarget? { state.withLock { $0.node } }

    /// A node seated the member (`node`), or its connection ended (nil).
    func set(_ node: ClusterTarget?) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.node != node else { return [] }
            state.node = node
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once the node is not `node` any more (at once if it is not), or when the task is
    /// cancelled: the node then.
    public func change(from node: ClusterTarget?) async -> ClusterTarget? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.node == node, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return current
    }

    /// The node once the member is seated at one (nil only when the task is cancelled first).
    public func seated() async -> ClusterTarget? {
        var node = current
        while node == nil, !Task.isCancelled { node = await change(from: nil) }
        return node
    }
}

import TandemBase

/// The node a member is seated at now, for what must follow it: the guest's media tunnel and the
/// host's relay connection. Set when a node welcomes the member, cleared when its connection to that
/// node ends; so after a redirect or a takeover both reach the party's new node, and while the member
/// is between nodes they wait instead of dialling one that no longer serves the party.
///
/// Safe from any thread; the member (``PartyMember``) is its one writer.
public final class MemberNode: Sendable {
    private let node: Awaitable<ClusterTarget?>

    init(_ node: ClusterTarget?) { self.node = Awaitable(node) }

    /// The node seating the member now; nil between nodes.
    public var current: ClusterTarget? { node.value }

    /// A node seated the member (`node`), or its connection ended (nil).
    func set(_ node: ClusterTarget?) { self.node.withLock { $0 = node } }

    /// Returns once the node is not `node` any more (at once if it is not), or when the task is
    /// cancelled: the node then.
    public func change(from node: ClusterTarget?) async -> ClusterTarget? {
        _ = try? await self.node.wait(until: { $0 != node })
        return current
    }

    /// The node once the member is seated at one (nil only when the task is cancelled first).
    public func seated() async -> ClusterTarget? {
        var node = current
        while node == nil, !Task.isCancelled { node = await change(from: nil) }
        return node
    }
}

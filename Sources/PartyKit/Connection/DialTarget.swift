import TandemBase

/// A node a member dials: where it is, and how a node it is sent to from there is reached.
///
/// The member's connection (``MemberConnection``) keeps its targets as values of this kind without
/// knowing how they are trusted: a real member's target carries its TLS trust (a redirect's
/// fingerprint pinned, say), and a plain ``NodeAddress`` is a target of its own.
public protocol DialTarget: Sendable, Equatable {
    /// Where the node is.
    var address: HostPort { get }
    /// The node `node` names, reached from this one: where a redirect sends the member, or the next
    /// live node it tries when this one cannot be reached. What carries over of how this node was
    /// trusted is the conformer's business.
    func following(_ node: NodeAddress) -> Self
}

extension DialTarget {
    /// After this node failed: the next of `nodes` (the cluster's live nodes as last heard) in turn,
    /// after this node's place in the list (the first if it is not listed); nil when there is no other
    /// node to try.
    public func next(among nodes: [NodeAddress]) -> Self? {
        guard !nodes.isEmpty else { return nil }
        let here = nodes.firstIndex { $0.address == address }
        let node = nodes[((here ?? -1) + 1) % nodes.count]
        guard node.address != address else { return nil }
        return following(node)
    }
}

extension NodeAddress: DialTarget {
    /// `node` itself: a plain address carries nothing over from the node it was reached from.
    public func following(_ node: NodeAddress) -> NodeAddress { node }
}

/// How a node uses the cluster directory: who it is, where members reach it, and its lease timing.
public struct ClusterConfiguration: Sendable {
    /// How long a party's lease lasts past its last renewal. A node that dies holds its parties for at
    /// most this long before another node may take them over, so it bounds a party's recovery time: the
    /// issue's goal is everyone back in sync within 15 s of a SIGKILL, and members' reconnect backoff
    /// (up to 5 s) and the restore come on top of the lease running out.
    public static let defaultLeaseLength = Duration.seconds(10)
    /// The shortest lease a node accepts (seconds): a renewal every third of it must fit an operation
    /// timeout, or a slow query would cost the lease.
    public static let minimumLeaseSeconds = 3.0
    /// How long one directory operation may take before it counts as failed. Shorter than a renew
    /// period (a third of the default lease), so a renew stuck on a dead connection fails in time for
    /// the next one to be tried before the lease runs out.
    public static let defaultOperationTimeout = Duration.seconds(3)
    /// How long a first connection may take at start before the database counts as unreachable.
    public static let defaultConnectTimeout = Duration.seconds(5)
    /// Connections the directory's pool may hold: directory operations are short single statements,
    /// so a few serve a node's every party; the pool opens them on demand.
    public static let defaultMaximumConnections = 4

    /// This node's stable name in the `nodes` table (e.g. the host name, or a name from the config).
    public var nodeID: String
    /// Where members reach this node's parties (e.g. `wss://node-a.example:7443`): what a node that
    /// does not own a party tells its members.
    public var address: String
    public var leaseLength: Duration = Self.defaultLeaseLength
    public var operationTimeout: Duration = Self.defaultOperationTimeout
    public var connectTimeout: Duration = Self.defaultConnectTimeout
    public var maximumConnections: Int = Self.defaultMaximumConnections

    /// How often an owner renews each lease (and the node its heartbeat): a third of the lease, so two
    /// renewals in a row can fail (a database restart, a slow query) before the lease runs out.
    public var renewPeriod: Duration { leaseLength / 3 }

    public init(nodeID: String, address: String) {
        self.nodeID = nodeID
        self.address = address
    }
}

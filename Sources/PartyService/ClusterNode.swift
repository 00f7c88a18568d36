import Logging
import PartyCluster
import PartyKit
import PartyServer
import Synchronization

/// This `tandem serve` as one node of a cluster: the ``PartyPlacement`` a ``PartyServerRunner`` asks,
/// on the PostgreSQL ``ClusterDirectory``. It holds this node's leases and renews them every
/// ``ClusterConfiguration/renewPeriod`` (a third of the lease); a lease it loses (another node took
/// the party, or it could not renew before the lease ran out) goes out on ``lostParties`` and the
/// runner stops serving that party.
public actor ClusterNode: PartyPlacement {
    public nonisolated let address: NodeAddress
    public nonisolated let lostParties: AsyncStream<String>
    private nonisolated let lostContinuation: AsyncStream<String>.Continuation
    private nonisolated let live: Mutex<[NodeAddress]>
    public nonisolated var nodes: [NodeAddress] { live.withLock { $0 } }

    public nonisolated let directory: ClusterDirectory
    private var leases: [String: PartyLease] = [:]
    private let logger: Logger

    private init(directory: ClusterDirectory, address: NodeAddress, logger: Logger) {
        self.directory = directory
        self.address = address
        self.logger = logger
        live = Mutex([address])
        (lostParties, lostContinuation) = AsyncStream.makeStream(of: String.self)
    }

    /// Connects to the directory at `url` as node `nodeID` reached at `address`, runs `body` with the
    /// node, and stops renewing and disconnects after. Throws ``ClusterDirectoryError`` when the
    /// database cannot be reached at start.
    public static func run<T: Sendable>(
        url: ClusterDatabaseURL, nodeID: String, address: NodeAddress,
        leaseLength: Duration = ClusterConfiguration.defaultLeaseLength, logger: Logger,
        _ body: (ClusterNode) async throws -> T
    ) async throws -> T {
        var configuration = ClusterConfiguration(nodeID: nodeID, address: address.description)
        configuration.leaseLength = leaseLength
        return try await ClusterDirectory.withDirectory(url: url, configuration: configuration, logger: logger) { directory in
            let node = ClusterNode(directory: directory, address: address, logger: logger)
            await node.refreshNodes()
            defer { node.lostContinuation.finish() }
            return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                group.addTask { await node.renewLoop() }
                defer { group.cancelAll() }
                return try await body(node)
            }
        }
    }

    /// The parties this node holds a lease on.
    public var ownedParties: [String] { Array(leases.keys) }

    // MARK: PartyPlacement

    public func place(party: String, key: String, creating: Bool) async throws -> PartyPlacementResult {
        if !creating {
            if let owner = try await directory.lookup(party: party), owner.node != directory.configuration.nodeID {
                return .elsewhere(try Self.address(of: owner))
            }
            // Nobody serves it: a guest's hello takes over only a party that has a state to restore.
            guard try await directory.restore(party: party) != nil else { return .unknown }
        }
        switch try await directory.claim(party: party, key: key) {
        case .claimed(let lease, let snapshot):
            leases[party] = lease
            logger.info("claimed party", metadata: ["party": "\(party)", "generation": "\(lease.generation)",
                                                    "restored": "\(snapshot.map { "epoch \($0.epoch)" } ?? "no")"])
            return .here(restore: snapshot.map { PartyRestore(config: $0.config, restore: $0.restore, seats: $0.seats) })
        case .ownedElsewhere(let owner):
            return .elsewhere(try Self.address(of: owner))
        case .wrongKey:
            return .wrongKey
        }
    }

    public func save(party: String, image: PartyServerCore.PartyImage, partyClock: Double, sequence: Int) async {
        guard let lease = leases[party] else { return }
        let snapshot = PartySnapshot(config: image.config, timeline: image.timeline, partyClock: partyClock, seats: image.seats)
        do {
            try await directory.save(snapshot, lease: lease, sequence: sequence)
        } catch ClusterDirectoryError.leaseLost {
            lose(party, generation: lease.generation, why: "another node took it over")
        } catch {
            logger.warning("cluster save failed", metadata: ["party": "\(party)", "error": "\(error)"])
        }
    }

    public func end(party: String) async {
        guard let lease = leases.removeValue(forKey: party) else { return }
        do { try await directory.end(lease) } catch {
            logger.warning("cluster end failed", metadata: ["party": "\(party)", "error": "\(error)"])
        }
    }

    public func releaseAll() async {
        let all = leases
        leases.removeAll()
        for lease in all.values {
            do { try await directory.release(lease) } catch {
                logger.warning("cluster release failed", metadata: ["party": "\(lease.party)", "error": "\(error)"])
            }
        }
        logger.info("released leases", metadata: ["parties": "\(all.count)"])
    }

    // MARK: Leases

    /// Renews every lease each renew period, and reads the live nodes.
    private func renewLoop() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: directory.configuration.renewPeriod) } catch { return }
            await renewAll()
            await refreshNodes()
        }
    }

    /// Every lease in one statement (``ClusterDirectory/renewAll(_:)``): one not renewed is lost; on an
    /// outage each holds until it runs out.
    private func renewAll() async {
        let current = Array(leases.values)
        guard !current.isEmpty else { return }
        do {
            let renewed = Dictionary(try await directory.renewAll(current).map { ($0.party, $0) }, uniquingKeysWith: { a, _ in a })
            for lease in current {
                if let fresh = renewed[lease.party] {
                    if leases[lease.party]?.generation == lease.generation { leases[lease.party] = fresh }
                } else {
                    lose(lease.party, generation: lease.generation, why: "another node took it over")
                }
            }
        } catch {
            // An outage: a lease holds until it runs out; past that another node may own it.
            logger.warning("lease renewal failed", metadata: ["parties": "\(current.count)", "error": "\(error)"])
            for lease in current where ContinuousClock.now >= lease.validUntil {
                lose(lease.party, generation: lease.generation, why: "its lease ran out before it could be renewed")
            }
        }
    }

    private func lose(_ party: String, generation: Int64, why: String) {
        guard leases[party]?.generation == generation else { return }
        leases[party] = nil
        logger.warning("lost party", metadata: ["party": "\(party)", "why": "\(why)"])
        lostContinuation.yield(party)
    }

    private func refreshNodes() async {
        guard let listed = try? await directory.liveNodes() else { return }
        let addresses = listed.compactMap { NodeAddress(parsing: $0.address) }
        live.withLock { $0 = addresses.contains(address) ? addresses : [address] + addresses }
    }

    private static func address(of owner: PartyOwner) throws -> NodeAddress {
        guard let address = NodeAddress(parsing: owner.address) else {
            throw ClusterDirectoryError.failed(operation: "redirect to node \"\(owner.node)\"",
                                               reason: "its address \"\(owner.address)\" is not HOST:PORT[#FINGERPRINT]")
        }
        return address
    }
}

import Foundation
import Logging
import PartyCluster
import PartyKit
import PartyServer
import ServiceLifecycle
import TandemBase

/// `tandem serve --cluster`: this server as a node of its cluster, as a service. Once the party port
/// listens (the node's address has its port) and the parts before it have started, it connects to the
/// directory, joins the party server to the cluster, and keeps its leases (``ClusterNode``) until the
/// group shuts it down — last of all, after the drain saved and released its parties — then leaves the
/// directory. A directory it cannot reach at start ends the group: one ``ServeError``.
struct ClusterNodeService: Service, CustomStringConvertible {
    let description = "cluster node"
    let url: ClusterDatabaseURL
    /// `cluster.node`; nil: the host name and the party port.
    let nodeID: String?
    /// `cluster.address`; nil: the listen address (the host name when it listens on all) with the party port.
    let givenAddress: HostPort?
    /// Where the party server listens (its port may be 0 until it listens).
    let listen: HostPort
    /// The self-signed certificate's fingerprint, which the members sent here pin; nil with a given certificate.
    let fingerprint: String?
    let leaseLength: Duration
    let server: PartyServerRunner
    /// The party port, once it listens.
    let partyPort: @Sendable () async throws -> Int
    /// Returns once the parts before this one have started.
    let after: (@Sendable () async throws -> Void)?
    let say: @Sendable (String) -> Void
    let logger: Logger

    func run() async throws {
        let port: Int
        do {
            port = try await cancelWhenGracefulShutdown(partyPort)
            if let after { try await cancelWhenGracefulShutdown(after) }
        } catch {
            return  // shut down before its turn to join
        }
        var address: NodeAddress
        if let givenAddress {
            address = NodeAddress(host: givenAddress.host, port: givenAddress.port)
        } else {
            let everywhere = ["0.0.0.0", "::", "[::]", ""].contains(listen.host)
            address = NodeAddress(host: everywhere ? ProcessInfo.processInfo.hostName : listen.host, port: port)
        }
        // A self-signed node is pinned by the members it is sent; a given certificate is verified.
        address.fingerprint = fingerprint
        let node = nodeID ?? "\(ProcessInfo.processInfo.hostName):\(port)"
        do {
            try await ClusterNode.run(url: url, nodeID: node, address: address, leaseLength: leaseLength, logger: logger) { cluster in
                await server.joinCluster(cluster)
                say("cluster node \(node) at \(address)")
                try? await gracefulShutdown()
            }
        } catch let error as ClusterDirectoryError {
            throw ServeError("cluster \(url): \(error)")
        }
        logger.info("stopped", metadata: ["part": "\(description)"])
    }
}

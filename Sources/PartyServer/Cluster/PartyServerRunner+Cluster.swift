import PartyKit
import WebSocketTransport

/// `tandem serve --cluster`: the runner's side of a cluster. A hello for a party this node does not
/// hold waits while the directory is asked (in a task of its own: other members' messages go on),
/// then goes to the core (this node claimed the party, restored from its snapshot if it had one),
/// or is answered with a redirect to the node that owns it. Owned parties are saved on each new epoch
/// or seat, forgotten when they end, and given up when their lease is lost.
extension PartyServerRunner {
    /// What members of a party this node lost are told (they reconnect and are redirected).
    static let movedMessage = "the party moved to another server"
    /// What members hear while the directory cannot be reached (they try again).
    static let directoryDownMessage = "the party directory is unavailable; try again"
    /// How long after a party comes to this node its members' media requests wait for the host's relay
    /// connection: the host's hello and relay follow within a reconnect or two (a second each).
    static let relayReturnWindow = Duration.seconds(20)

    /// What members hear while this node has not joined its cluster yet (they try again).
    static let joiningMessage = "this server is still joining its cluster; try again"

    /// This server will be a node of a cluster: until ``joinCluster(_:)``, a hello is not taken (a host
    /// would make its party here, unknown to the directory) but answered with a retryable error
    /// (`serverShutdown`, ``joiningMessage``). Called before ``start()`` when the node's address
    /// (its port) is needed to join.
    public func awaitCluster() {
        if cluster == nil { cluster = ClusterGate(placement: JoiningPlacement()) }
    }

    /// Serves parties as one node of a cluster from now on.
    public func joinCluster(_ placement: any PartyPlacement) {
        if var gate = cluster {
            gate.placement = placement
            cluster = gate
        } else {
            cluster = ClusterGate(placement: placement)
        }
        Task { [weak self] in
            for await party in placement.lostParties { await self?.lostLease(party) }
        }
    }

    /// A message from WebSocket connection `id`, through ``gate(_:text:receivedAt:messagesThisSecond:)``.
    func gate(_ id: Int, _ message: InboundMessage) -> Bool {
        gate(id, text: message.text, receivedAt: message.receivedAt, messagesThisSecond: message.messagesThisSecond)
    }

    /// Handles a message of a connection that has not passed its hello in a cluster; false when it is
    /// not the gate's (no cluster, or already admitted): the core takes it as usual.
    func gate(_ id: Int, text: String, receivedAt: Double?, messagesThisSecond: Int?) -> Bool {
        guard var gate = cluster, !gate.admitted.contains(id) else { return false }
        let held = ClusterGate.Held(connection: id, text: text, receivedAt: receivedAt, messagesThisSecond: messagesThisSecond,
                                    source: core.source(of: id))
        if gate.holdMore(held) { cluster = gate; return true }
        // Anything but a hello of this version: the core answers it (an error, a version mismatch).
        guard case .hello(let hello)? = try? PartyProtocol.decode(text), hello.version == PartyProtocol.version,
              core.timeline(of: hello.party) == nil else {
            admit(held)
            return true
        }
        // An address over the limit is refused before its key goes to the directory. The core's count:
        // one per address for hellos (here or elsewhere) and Syncplay passwords alike.
        if let source = held.source, case .refused(let wait) = core.wrongKeyVerdict(source: source, now: clock.now()) {
            refuse([held], ErrorMessage(code: .wrongKey, message: WrongKeyLimiter.refusal(retryAfter: wait)))
            return true
        }
        let request = ClusterGate.Request(party: hello.party, key: hello.key)
        let first = gate.hold(held, for: request)
        cluster = gate
        guard first else { return true }
        let placement = gate.placement
        if gate.draining {
            // A draining node claims nothing: the member goes to another live node.
            let result: Result<PartyPlacementResult, any Error>
            if let elsewhere = placement.nodes.first(where: { $0 != placement.address }) {
                result = .success(.elsewhere(elsewhere))
            } else {
                result = .failure(PlacementUnavailable())
            }
            placed(request, result)
            return true
        }
        let creating = hello.create != nil
        Task { [weak self] in
            let result: Result<PartyPlacementResult, any Error>
            do { result = .success(try await placement.place(party: request.party, key: request.key, creating: creating)) } catch {
                result = .failure(error)
            }
            await self?.placed(request, result)
        }
        return true
    }

    /// The directory's answer for `request`: the held hellos go on accordingly.
    func placed(_ request: ClusterGate.Request, _ result: Result<PartyPlacementResult, any Error>) {
        guard var gate = cluster else { return }
        let held = gate.release(request)
        cluster = gate
        switch result {
        case .success(.here(let restore)):
            if let restore, core.timeline(of: request.party) == nil {
                perform(core.restore(party: request.party, key: request.key, config: restore.config, restore: restore.restore,
                                     seats: restore.seats, now: clock.now()))
            }
            // Saved on the next tick: the restored epoch, or the new party's first.
            if cluster?.owned[request.party] == nil { cluster?.owned[request.party] = ClusterGate.Saved(epoch: -1, seats: -1) }
            for h in held { admit(h) }
            // Its host's relay connection follows the host here: members' media requests wait for it.
            if let token = core.mediaToken(of: request.party) {
                media.serveRelayed(party: request.party, token: token)
                media.relay.expectUpstream(party: request.party, within: Self.relayReturnWindow)
            }
        case .success(.elsewhere(let node)):
            logger.info("redirected hellos", metadata: ["party": "\(request.party)", "to": "\(node)", "count": "\(held.count)"])
            refuse(held, ErrorMessage(code: .redirect, message: "party \"\(request.party)\" is served by \(node)", redirect: node))
        case .success(.wrongKey):
            let now = clock.now()
            for source in Set(held.compactMap(\.source)) { core.recordWrongKey(source: source, now: now) }
            refuse(held, ErrorMessage(code: .wrongKey, message: "wrong key for party \"\(request.party)\""))
        case .success(.unknown):
            for h in held { admit(h) }  // the core says it does not know the party
        case .failure(is JoiningPlacement.NotJoined):
            refuse(held, ErrorMessage(code: .serverShutdown, message: Self.joiningMessage))
        case .failure(let error):
            logger.warning("cluster placement failed", metadata: ["party": "\(request.party)", "error": "\(error)"])
            refuse(held, ErrorMessage(code: .serverShutdown, message: Self.directoryDownMessage))
        }
    }

    /// Passes a held message to the core; a welcome it answers lists the cluster's live nodes.
    private func admit(_ held: ClusterGate.Held) {
        guard connections[held.connection] != nil || locals[held.connection] != nil else { return }
        cluster?.admitted.insert(held.connection)
        if case .hello(let hello)? = try? PartyProtocol.decode(held.text), let token = hello.resume {
            core.reclaimSeat(party: hello.party, token: token)
        }
        let now = clock.now()
        var outputs = core.received(held.connection, text: held.text, receivedAt: held.receivedAt.map { min($0, now) },
                                    messagesThisSecond: held.messagesThisSecond, now: now)
        if let nodes = cluster?.placement.nodes, !nodes.isEmpty {
            outputs = outputs.map { output in
                guard case .send(let id, .welcome(var welcome)) = output else { return output }
                welcome.nodes = nodes
                return .send(connection: id, .welcome(welcome))
            }
        }
        perform(outputs)
    }

    private func refuse(_ held: [ClusterGate.Held], _ error: ErrorMessage) {
        var seen = Set<Int>()
        var outputs: [PartyServerCore.Output] = []
        for h in held where seen.insert(h.connection).inserted {
            outputs.append(.send(connection: h.connection, .error(error)))
            outputs.append(.close(connection: h.connection, reason: error.message))
        }
        perform(outputs)
    }

    /// A connection closed: the gate forgets it.
    func clusterForget(_ id: Int) { cluster?.forget(id) }

    /// On each tick: an owned party with a new epoch or seat is saved; one that ended is forgotten.
    func clusterTick() {
        announceNodes()
        guard var gate = cluster, !gate.owned.isEmpty else { return }
        let placement = gate.placement
        for (party, saved) in gate.owned {
            guard let timeline = core.timeline(of: party), let seats = core.seatCount(of: party) else {
                gate.owned[party] = nil
                Task { await placement.end(party: party) }
                continue
            }
            let now = ClusterGate.Saved(epoch: timeline.epoch, seats: seats)
            guard now != saved, let image = core.image(of: party) else { continue }
            gate.owned[party] = now
            gate.saveSequence += 1
            let partyClock = clock.now(), sequence = gate.saveSequence
            Task { await placement.save(party: party, image: image, partyClock: partyClock, sequence: sequence) }
        }
        cluster = gate
    }

    /// When the live nodes changed (a node joined or died), every member here hears the new list, so
    /// it can reconnect to a node added after its welcome.
    private func announceNodes() {
        guard let gate = cluster else { return }
        let nodes = gate.placement.nodes
        guard !nodes.isEmpty, nodes != gate.announcedNodes else { return }
        cluster?.announcedNodes = nodes
        let message = PartyMessage.nodes(NodeList(nodes: nodes))
        perform(gate.admitted.sorted().map { PartyServerCore.Output.send(connection: $0, message) })
    }

    /// This node lost `party`'s lease: it stops serving it, and its members find the new owner.
    func lostLease(_ party: String) {
        cluster?.owned[party] = nil
        perform(core.evict(party: party, reason: Self.movedMessage))
    }

    /// A drain in a cluster: every owned party is saved, its lease released, and its members told to
    /// reconnect, which lands them on another node at once; hellos that still come here are
    /// redirected there.
    public func drainCluster() async {
        guard var gate = cluster else { return }
        gate.draining = true
        cluster = gate
        let placement = gate.placement
        let parties = Array(gate.owned.keys)
        for party in parties {
            guard let image = core.image(of: party) else { continue }
            cluster?.saveSequence += 1
            await placement.save(party: party, image: image, partyClock: clock.now(), sequence: cluster?.saveSequence ?? 0)
        }
        await placement.releaseAll()
        cluster?.owned.removeAll()
        for party in parties {
            perform(core.evict(party: party, reason: "the server is restarting"))
        }
    }
}

/// The placement of a node that has not joined its cluster yet: it places nothing.
struct JoiningPlacement: PartyPlacement {
    struct NotJoined: Error, CustomStringConvertible {
        var description: String { "not joined to the cluster yet" }
    }

    var nodes: [NodeAddress] { [] }
    var address: NodeAddress { NodeAddress(host: "", port: 0) }
    var lostParties: AsyncStream<String> { AsyncStream { $0.finish() } }
    func place(party: String, key: String, creating: Bool) async throws -> PartyPlacementResult { throw NotJoined() }
    func save(party: String, image: PartyServerCore.PartyImage, partyClock: Double, sequence: Int) async {}
    func end(party: String) async {}
    func releaseAll() async {}
}

/// A draining node with no other live node to send a member to.
struct PlacementUnavailable: Error, CustomStringConvertible {
    var description: String { "no other live node" }
}

import PartyKit
import WebSocketTransport

/// What a party's host converts of its relayed items for browsers (protocol 8): the server asks the
/// host for a piece (``RelayWebFetch``) on the relay connection that carries the item's bytes, the
/// host answers with it whole in piece frames (``RelayPieceChunk``), and ``RelayPieces`` keeps it,
/// so each piece is made and uploaded once however many guests ask. The machine decides; this is
/// its driver: the lock around it, the sends and the resumptions outside it.
extension MediaRelay {
    /// Default size of the converted pieces kept (``RelayPieces``): what a host's own converter keeps
    /// (``WebMediaConverter``'s 64 MiB), about a minute of 8 Mb/s 1080p for guests watching together.
    public static let defaultPieceCacheBytes = 64 << 20

    /// Longest a piece asked of a host may take to come in: a two-hour file without cues is read
    /// once for its keyframes (tens of seconds from a disk) before its index is made, and other
    /// pieces may be ahead of it in the host's two conversion jobs. A host still connected but
    /// silent longer than this is stuck; its guests get a 502, not a request that never ends.
    public static let defaultPieceTimeout = Duration.seconds(120)

    /// What a browser guest is told for a party whose host does not convert its items.
    static let notConverted = "this party's items are not converted for browsers here"

    /// Whether `party`'s host relays its items now and converts them for browsers.
    func converts(party: String) -> Bool { state.withLock { $0.upstreams[party]?.web ?? false } }

    /// Whether `party`'s host relays its items now.
    func relays(party: String) -> Bool { state.withLock { $0.upstreams[party] != nil } }

    /// Piece `request` of relayed `item` as `party`'s host converts it: kept, or asked of the host
    /// (once, however many ask). Throws ``RelayPieceFailure``: `unavailable` when the host does not
    /// make it (or relays no such item, or converts nothing), `conversion` when making it failed,
    /// `relay` when the host's relay connection closed first or the piece did not come within ``pieceTimeout``.
    func piece(party: String, item: Int, _ request: WebMediaRequest) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { (waiter: Waiter) in
            let (actions, connection) = state.withLock { state -> ([RelayPieces<Waiter>.Action], WebSocketConnection?) in
                guard let upstream = state.upstreams[party], let size = upstream.sizes[item] else {
                    return ([.answer([waiter], .failure(.unavailable("no item \(item) in this party")))], nil)
                }
                guard upstream.web else { return ([.answer([waiter], .failure(.unavailable(Self.notConverted)))], nil) }
                let id = state.nextID
                state.nextID += 1
                let key = RelayPieces<Waiter>.Key(party: party, item: item, identity: upstream.identities[item] ?? "\(size)",
                                                  request: request)
                return (state.pieces.wanted(key, by: waiter, id: id), upstream.connection)
            }
            perform(actions, on: connection)
        }
    }

    /// A binary frame on `party`'s relay connection: a file's chunk or part of a converted piece.
    func received(_ frame: RelayFrame, party: String) {
        switch frame {
        case .chunk(let chunk):
            received(chunk, party: party)
        case .piece(let piece):
            let (actions, connection) = state.withLock { state -> ([RelayPieces<Waiter>.Action], WebSocketConnection?) in
                if state.pieces.isInFlight(piece.id, party: party) { state.uploaded += Int64(piece.data.count) }
                // A piece done lets the next one waiting its turn be asked, on the same connection.
                return (state.pieces.received(piece, party: party), state.upstreams[party]?.connection)
            }
            perform(actions, on: connection)
        }
    }

    /// `party`'s host could not send a piece (``RelayFailed`` of a web fetch).
    func pieceFailed(_ failure: RelayFailed, party: String) {
        let (actions, connection) = state.withLock { state in
            (state.pieces.failed(failure, party: party), state.upstreams[party]?.connection)
        }
        perform(actions, on: connection)
    }

    /// Converted pieces kept now.
    var keptPieces: Int { state.withLock { $0.pieces.keptCount } }

    /// Does what the machine asked, outside the lock: fetches go out on `connection` (the party's
    /// relay connection when they were decided), answers resume their waiters.
    func perform(_ actions: [RelayPieces<Waiter>.Action], on connection: WebSocketConnection?) {
        for action in actions {
            switch action {
            case .fetch(let party, let fetch):
                connection?.send(RelayProtocol.encode(.webFetch(fetch)))
                // The timer ends after `pieceTimeout` whatever happened (nothing to do then for a piece that came in).
                let timeout = pieceTimeout
                Task {
                    try? await Task.sleep(for: timeout)
                    let reason = "the host sent no \(fetch.piece) of item \(fetch.item) within \(timeout.components.seconds) s"
                    let (actions, connection) = state.withLock { state in
                        (state.pieces.expired(fetch.id, party: party, reason: reason), state.upstreams[party]?.connection)
                    }
                    perform(actions, on: connection)
                }
            case .answer(let waiters, let result):
                for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
            }
        }
    }
}

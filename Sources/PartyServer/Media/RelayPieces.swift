import DequeModule
import PartyKit

/// Why a converted piece of a relayed item could not be served.
enum RelayPieceFailure: Error, Equatable, CustomStringConvertible {
    /// The host does not make it (its converter's ``WebMediaUnavailable``, or no converter): a 404
    /// with the reason, as on the host's own port.
    case unavailable(String)
    /// The host could not make it (a damaged file): a 500 with the host's one-line reason.
    case conversion(String)
    /// The relay could not bring it (the host's relay connection closed, or it sent bad frames): a 502.
    case relay(String)

    var description: String {
        switch self {
        case .unavailable(let reason), .conversion(let reason), .relay(let reason): reason
        }
    }
}

/// The converted pieces of relayed items (protocol 8: ``RelayWebFetch``, ``RelayPieceChunk``) as a
/// state machine with no IO: named events in (a piece wanted, a piece frame, a failure, the host's
/// relay connection gone), actions out (ask the host, answer waiters). ``MediaRelay`` drives it
/// under its lock and performs the actions outside it. A piece is asked of the host once however
/// many wait for it, assembled from its frames (in order, as the host sends them), and kept in
/// memory, oldest out first, within ``limit`` bytes, so each is made once for all the guests. At
/// most ``maxInFlightPerParty`` pieces of a party are asked at once; the others wait their turn.
struct RelayPieces<Waiter> {
    /// Pieces asked of one host at once: its converter makes two at a time
    /// (`WebMediaConverter.concurrentJobs`), so four keep it busy while finished pieces are on the
    /// wire, and a host never has more than four pieces (at most 64 MiB each) queued on its relay
    /// connection, however many segments guests ask for.
    static var maxInFlightPerParty: Int { 4 }

    struct Key: Hashable, Sendable {
        var party: String
        var item: Int
        /// What the host offered as the item (its size and, when given, sampled hash): a host that
        /// comes back with another file under the same index never gets the old file's pieces.
        var identity: String
        var request: WebMediaRequest
    }

    enum Action {
        /// Send this fetch to `party`'s host on its relay connection.
        case fetch(party: String, RelayWebFetch)
        /// Answer these waiters.
        case answer([Waiter], Result<[UInt8], RelayPieceFailure>)
    }

    /// A piece on its way: the bytes so far, and its length once its first frame told it.
    private struct Assembly {
        var key: Key
        var bytes: [UInt8] = []
        var total: Int64?
    }

    /// Bytes of pieces kept, at most (the newest piece is kept even when it alone is larger).
    let limit: Int
    private var kept: [Key: [UInt8]] = [:]
    private var order = Deque<Key>()
    private var keptBytes = 0
    private var waiting: [Key: [Waiter]] = [:]
    private var inFlight: [Int: Assembly] = [:]
    /// Pieces wanted but not asked yet (a party at ``maxInFlightPerParty``), by party, in order.
    private var queued: [String: Deque<(id: Int, key: Key)>] = [:]

    init(limit: Int) { self.limit = limit }

    /// Whether `id` is a piece of `party` on its way (a frame or a failure with this id is its).
    func isInFlight(_ id: Int, party: String) -> Bool { inFlight[id]?.key.party == party }

    /// Pieces kept now.
    var keptCount: Int { kept.count }

    /// `waiter` wants `key`: answered from what is kept, or it waits for the piece, which is asked of
    /// the host under `id` (a fetch id not used before) unless it is on its way already.
    mutating func wanted(_ key: Key, by waiter: Waiter, id: Int) -> [Action] {
        if let bytes = kept[key] { return [.answer([waiter], .success(bytes))] }
        let asked = waiting[key] != nil
        waiting[key, default: []].append(waiter)
        if asked { return [] }
        guard inFlight.values.count(where: { $0.key.party == key.party }) < Self.maxInFlightPerParty else {
            queued[key.party, default: []].append((id, key))
            return []
        }
        return [ask(id, key)]
    }

    private mutating func ask(_ id: Int, _ key: Key) -> Action {
        inFlight[id] = Assembly(key: key)
        return .fetch(party: key.party, RelayWebFetch(id: id, item: key.item, piece: WebMediaPath.name(of: key.request)))
    }

    /// A piece of `party` is done (made or failed): the next one waiting its turn is asked.
    private mutating func next(_ party: String) -> [Action] {
        guard let (id, key) = queued[party]?.popFirst() else { return [] }
        if queued[party]?.isEmpty == true { queued[party] = nil }
        return [ask(id, key)]
    }

    /// A piece frame from `party`'s host. One whose id is no piece of that party on its way is
    /// dropped; one out of order or with another length than the piece's first frame fails the
    /// piece's waiters, and nothing of it is kept.
    mutating func received(_ frame: RelayPieceChunk, party: String) -> [Action] {
        guard isInFlight(frame.id, party: party), var assembly = inFlight.removeValue(forKey: frame.id) else { return [] }
        guard frame.offset == Int64(assembly.bytes.count), assembly.total.map({ $0 == frame.total }) ?? true else {
            let piece = WebMediaPath.name(of: assembly.key.request)
            return fail(assembly.key, .relay("the host sent item \(assembly.key.item)'s \(piece) out of order")) + next(party)
        }
        if assembly.total == nil {
            assembly.total = frame.total
            assembly.bytes.reserveCapacity(Int(frame.total))
        }
        assembly.bytes += frame.data
        guard Int64(assembly.bytes.count) == frame.total else {
            inFlight[frame.id] = assembly  // moved out and back: appending never copies the bytes so far
            return []
        }
        keep(assembly.key, assembly.bytes)
        return [.answer(waiting.removeValue(forKey: assembly.key) ?? [], .success(assembly.bytes))] + next(party)
    }

    /// `party`'s host could not send piece `failure.id`: its waiters get why.
    mutating func failed(_ failure: RelayFailed, party: String) -> [Action] {
        guard isInFlight(failure.id, party: party), let assembly = inFlight.removeValue(forKey: failure.id) else { return [] }
        return fail(assembly.key, failure.unavailable == true ? .unavailable(failure.reason) : .conversion(failure.reason)) + next(party)
    }

    /// Piece `id` of `party`, asked ``MediaRelay/pieceTimeout`` ago, is not in (a host whose converter
    /// is stuck): its waiters fail, and its frames, should they come, are dropped.
    mutating func expired(_ id: Int, party: String, reason: String) -> [Action] {
        guard isInFlight(id, party: party), let assembly = inFlight.removeValue(forKey: id) else { return [] }
        return fail(assembly.key, .relay(reason)) + next(party)
    }

    /// `party`'s relay connection closed: every piece of it on its way or waiting its turn fails
    /// (what is kept stays, as relayed chunks do).
    mutating func closed(party: String, reason: String) -> [Action] {
        let gone = inFlight.filter { $0.value.key.party == party }
        var actions: [Action] = []
        for (id, assembly) in gone {
            inFlight[id] = nil
            actions += fail(assembly.key, .relay(reason))
        }
        for (_, key) in queued.removeValue(forKey: party) ?? [] { actions += fail(key, .relay(reason)) }
        return actions
    }

    private mutating func fail(_ key: Key, _ failure: RelayPieceFailure) -> [Action] {
        [.answer(waiting.removeValue(forKey: key) ?? [], .failure(failure))]
    }

    private mutating func keep(_ key: Key, _ bytes: [UInt8]) {
        guard kept[key] == nil else { return }
        kept[key] = bytes
        order.append(key)
        keptBytes += bytes.count
        while keptBytes > limit, order.count > 1, let oldest = order.popFirst() {
            keptBytes -= kept.removeValue(forKey: oldest)?.count ?? 0
        }
    }
}

extension RelayPieces: Sendable where Waiter: Sendable {}
extension RelayPieces.Action: Sendable where Waiter: Sendable {}

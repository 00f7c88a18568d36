import DequeModule
import Foundation
import PartyKit
import TandemBase
import WebSocketTransport

/// The party server's side of relayed media: the hosts' relay connections, the chunks fetched
/// through them, and the requests waiting for chunks. A chunk that several members want at once
/// is fetched once; fetched chunks stay in a bounded memory cache (oldest out first), and, with a
/// ``RelayDiskCache``, in a folder with a size cap behind it, so N members watching the same part
/// cost the host about one upload of it, even long after the memory tier has moved on.
public final class MediaRelay: Sendable {
    /// Default cache size: an hour of a 500 kbit/s stream, a few minutes of HD.
    public static let defaultCacheBytes = 256 << 20
    /// A waiting request.
    typealias Waiter = CheckedContinuation<[UInt8], any Error>

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    struct ChunkKey: Hashable, Sendable {
        var party: String
        var item: Int
        var index: Int64
    }

    struct Upstream {
        let connection: WebSocketConnection
        let sizes: [Int: Int64]
        /// Item → its identity for the disk tier (size and sampled SHA-256), for items offered with a hash.
        let identities: [Int: String]
        /// Whether the host converts its items for browsers (its offer's `web`).
        var web = false
    }

    struct State {
        var upstreams: [String: Upstream] = [:]
        var cache: [ChunkKey: [UInt8]] = [:]
        var order = Deque<ChunkKey>()
        var cacheBytes = 0
        var waiting: [ChunkKey: [CheckedContinuation<[UInt8], any Error>]] = [:]
        var inFlight: [Int: ChunkKey] = [:]
        var nextID = 1
        var uploaded: Int64 = 0
        /// Parties whose host's relay connection is expected (a party this node just took over, or a
        /// host just seated), until when.
        var expected: [String: ContinuousClock.Instant] = [:]
        /// Requests waiting for a party's relay connection, by party.
        var waitingForUpstream: [String: Int] = [:]
        /// Converted pieces of the relayed items.
        var pieces: RelayPieces<Waiter>
    }

    /// Requests that wait for a party's relay connection to attach wait on it (``attached(_:)``).
    let state: Awaitable<State>
    private let cacheLimit: Int
    /// The second tier, if any.
    public let disk: RelayDiskCache?
    /// How long a piece asked of a host may take (``defaultPieceTimeout``).
    let pieceTimeout: Duration

    /// `cacheBytes`: the memory tier's cap (at least one chunk); `disk`: a disk tier behind it;
    /// `pieceCacheBytes`: the converted pieces kept for browsers (memory only).
    public init(cacheBytes: Int = MediaRelay.defaultCacheBytes, disk: RelayDiskCache? = nil,
                pieceCacheBytes: Int = MediaRelay.defaultPieceCacheBytes, pieceTimeout: Duration = MediaRelay.defaultPieceTimeout) {
        cacheLimit = max(cacheBytes, RelayProtocol.chunkBytes)
        self.disk = disk
        self.pieceTimeout = pieceTimeout
        state = Awaitable(State(pieces: RelayPieces(limit: pieceCacheBytes)))
    }

    /// Bytes the hosts have sent through their relay connections since start.
    public var uploadedBytes: Int64 { state.withLock { $0.uploaded } }

    /// The size of a relayed item, nil when no host relays it now.
    func size(party: String, item: Int) -> Int64? { state.withLock { $0.upstreams[party]?.sizes[item] } }

    // MARK: The host's connection

    /// A host's relay connection offers `sizes` (item → bytes) of `party`; it replaces an older one.
    func attach(party: String, connection: WebSocketConnection, sizes: [Int: Int64]) {
        attach(party: party, connection: connection, items: sizes.map { RelayOffer.Item(index: $0.key, bytes: $0.value) })
    }

    /// A host's relay connection offers `items` of `party` (with their hashes, for the disk tier), and
    /// converts them for browsers when `web`; it replaces an older one.
    func attach(party: String, connection: WebSocketConnection, items: [RelayOffer.Item], web: Bool = false) {
        let sizes = Dictionary(items.map { ($0.index, $0.bytes) }, uniquingKeysWith: { a, _ in a })
        let identities = Dictionary(items.compactMap { item in item.sha256.map { (item.index, "\(item.bytes):\($0)") } },
                                    uniquingKeysWith: { a, _ in a })
        let (old, orphans) = state.withLock { state -> (WebSocketConnection?, [RelayPieces<Waiter>.Action]) in
            let old = state.upstreams[party]?.connection
            state.upstreams[party] = Upstream(connection: connection, sizes: sizes, identities: identities, web: web)
            state.expected[party] = nil
            // Pieces asked on the old connection will never come on this one.
            let orphans = old.map { $0 !== connection } == true
                ? state.pieces.closed(party: party, reason: "the host's relay connection was replaced") : []
            return (old, orphans)
        }
        perform(orphans, on: nil)
        if let old, old !== connection { old.close(reason: "replaced by a newer relay connection") }
    }

    /// `party`'s host is expected to (re)connect its relay within `window` (this node just took the
    /// party over, or it was just created here): requests for its items wait for it until then
    /// (``size(party:item:waiting:)``) instead of being told there is no such item.
    func expectUpstream(party: String, within window: Duration) {
        state.withLock { state in
            let now = ContinuousClock.now
            state.expected = state.expected.filter { $0.value > now }  // hosts that never came back
            state.expected[party] = now + window
        }
    }

    /// The size of a relayed item; when `party`'s relay connection is expected but not there yet,
    /// waits for it (up to `wait`, and not past when it is expected by).
    func size(party: String, item: Int, waiting wait: Duration) async -> Int64? {
        let deadline = state.withLock { state -> ContinuousClock.Instant? in
            guard state.upstreams[party] == nil, let until = state.expected[party], until > .now else { return nil }
            return min(until, .now + wait)
        }
        guard let deadline else { return size(party: party, item: item) }
        state.withLock { $0.waitingForUpstream[party, default: 0] += 1 }
        defer { state.withLock { $0.waitingForUpstream[party, default: 1] -= 1 } }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.attached(party) }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
        }
        return size(party: party, item: item)
    }

    /// Requests waiting now for `party`'s relay connection.
    func requestsWaitingForUpstream(party: String) -> Int { state.withLock { $0.waitingForUpstream[party] ?? 0 } }

    /// Returns once `party`'s relay connection attaches (at once if it is there), or when cancelled.
    private func attached(_ party: String) async {
        _ = try? await state.wait(until: { $0.upstreams[party] != nil })
    }

    /// Whether `party`'s relay connection is expected and not there yet (a request may wait for it).
    func awaitsUpstream(party: String) -> Bool {
        state.withLock { state in state.upstreams[party] == nil && (state.expected[party].map { $0 > .now } ?? false) }
    }

    /// The party is gone from this node: nothing more is expected or kept for it (its chunks leave the
    /// memory tier now rather than when newer ones push them out; the disk tier keeps files by their
    /// content, for a party that plays them again).
    func forget(party: String) {
        state.withLock { state in
            state.expected[party] = nil
            state.waitingForUpstream[party] = nil
            let gone = state.order.filter { $0.party == party }
            guard !gone.isEmpty else { return }
            state.order.removeAll { $0.party == party }
            for key in gone { state.cacheBytes -= state.cache.removeValue(forKey: key)?.count ?? 0 }
        }
    }

    /// The host's relay connection closed: requests waiting for its chunks fail.
    func detach(party: String, connection: WebSocketConnection) {
        let reason = "the host's relay connection closed"
        let (failed, pieces) = state.withLock { state -> ([Waiter], [RelayPieces<Waiter>.Action]) in
            guard state.upstreams[party]?.connection === connection else { return ([], []) }
            state.upstreams[party] = nil
            var failed: [Waiter] = []
            for (id, key) in state.inFlight where key.party == party {
                state.inFlight[id] = nil
                failed += state.waiting.removeValue(forKey: key) ?? []
            }
            return (failed, state.pieces.closed(party: party, reason: reason))
        }
        for waiter in failed { waiter.resume(throwing: Failure(description: reason)) }
        perform(pieces, on: nil)
    }

    /// A chunk on `party`'s relay connection: the waiting requests get it, the caches keep it.
    /// One whose id is not a fetch of this party in flight is dropped; one of the wrong length fails
    /// its requests and is kept nowhere (it would serve every later reader wrong bytes).
    func received(_ chunk: RelayChunk, party: String) {
        let bytes = chunk.data
        let (waiters, outcome, onDisk) = state.withLock { state -> ([CheckedContinuation<[UInt8], any Error>], Result<[UInt8], Failure>, DiskPlace?) in
            guard let key = state.inFlight[chunk.id], key.party == party else { return ([], .success(bytes), nil) }
            state.inFlight[chunk.id] = nil
            state.uploaded += Int64(bytes.count)
            let waiters = state.waiting.removeValue(forKey: key) ?? []
            let expected = expectedLength(key, in: state)
            guard bytes.count == expected else {
                return (waiters, .failure(Failure(description: "the host sent \(bytes.count) bytes for a chunk of \(expected ?? 0)")), nil)
            }
            store(key, bytes, in: &state)
            return (waiters, .success(bytes), diskPlace(key, in: state))
        }
        for waiter in waiters { waiter.resume(with: outcome.mapError { $0 as any Error }) }
        if let disk, let onDisk {
            // Kept on disk off the caller's path (file I/O on NIO's thread pool).
            Task { await disk.write(onDisk.key, bytes) }
        }
    }

    /// A control message on `party`'s relay connection.
    func received(_ message: RelayMessage, party: String) {
        switch message {
        case .failed(let failure) where state.withLock({ $0.pieces.isInFlight(failure.id, party: party) }):
            pieceFailed(failure, party: party)
        case .failed(let failure):
            let waiters = state.withLock { state -> [CheckedContinuation<[UInt8], any Error>] in
                guard let key = state.inFlight[failure.id], key.party == party else { return [] }
                state.inFlight[failure.id] = nil
                return state.waiting.removeValue(forKey: key) ?? []
            }
            for waiter in waiters { waiter.resume(throwing: Failure(description: "the host could not read it: \(failure.reason)")) }
        case .offer, .fetch, .webFetch:
            break
        }
    }

    // MARK: Members' requests

    /// Chunk `index` (``RelayProtocol/chunkBytes`` each) of `item`: from the cache, or fetched
    /// from the host (once, however many ask).
    func chunk(party: String, item: Int, index: Int64) async throws -> [UInt8] {
        let key = ChunkKey(party: party, item: item, index: index)
        let (cached, onDisk) = state.withLock { state in (state.cache[key], diskPlace(key, in: state)) }
        if let cached { return cached }
        if let disk, let onDisk, disk.contains(onDisk.key), let bytes = await disk.read(onDisk.key, length: onDisk.length) {
            state.withLock { store(key, bytes, in: &$0) }
            return bytes
        }
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state -> Result<[UInt8], Failure>? in
                if let bytes = state.cache[key] { return .success(bytes) }
                state.waiting[key, default: []].append(continuation)
                if state.waiting[key]!.count == 1, !state.inFlight.values.contains(key) {
                    if let failure = requestFetch(key, in: &state) {
                        state.waiting[key] = nil
                        return .failure(failure)
                    }
                }
                return nil
            }
            if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
        }
    }

    /// Starts fetching chunks that will be wanted soon (nothing waits for them here).
    func prefetch(party: String, item: Int, indices: ClosedRange<Int64>) {
        state.withLock { state in
            for index in indices {
                let key = ChunkKey(party: party, item: item, index: index)
                guard state.cache[key] == nil, !state.inFlight.values.contains(key) else { continue }
                // On disk: read from there when wanted, not fetched from the host again.
                if let disk, let place = diskPlace(key, in: state), disk.contains(place.key) { continue }
                _ = requestFetch(key, in: &state)
            }
        }
    }

    /// Where a chunk lives in the disk tier, and its length: for items offered with a hash only.
    struct DiskPlace {
        var key: RelayDiskCache.Key
        var length: Int
    }

    private func diskPlace(_ key: ChunkKey, in state: State) -> DiskPlace? {
        guard disk != nil, let identity = state.upstreams[key.party]?.identities[key.item],
              let length = expectedLength(key, in: state) else { return nil }
        return DiskPlace(key: RelayDiskCache.Key(party: key.party, item: key.item, identity: identity, index: key.index),
                         length: length)
    }

    /// The length of a chunk of an item the party's host relays now: ``RelayProtocol/chunkBytes``,
    /// less for the last one; nil past the end or for an item not relayed.
    private func expectedLength(_ key: ChunkKey, in state: State) -> Int? {
        guard let size = state.upstreams[key.party]?.sizes[key.item] else { return nil }
        let offset = key.index * Int64(RelayProtocol.chunkBytes)
        guard offset >= 0, offset < size else { return nil }
        return Int(min(Int64(RelayProtocol.chunkBytes), size - offset))
    }

    private func requestFetch(_ key: ChunkKey, in state: inout State) -> Failure? {
        guard let upstream = state.upstreams[key.party], let size = upstream.sizes[key.item] else {
            return Failure(description: "no host relays item \(key.item) of this party now")
        }
        let offset = key.index * Int64(RelayProtocol.chunkBytes)
        guard offset < size else { return Failure(description: "past the end of item \(key.item)") }
        let id = state.nextID
        state.nextID += 1
        state.inFlight[id] = key
        let length = Int(min(Int64(RelayProtocol.chunkBytes), size - offset))
        upstream.connection.send(RelayProtocol.encode(.fetch(RelayFetch(id: id, item: key.item, offset: offset, length: length))))
        return nil
    }

    private func store(_ key: ChunkKey, _ bytes: [UInt8], in state: inout State) {
        guard state.cache[key] == nil else { return }
        state.cache[key] = bytes
        state.order.append(key)
        state.cacheBytes += bytes.count
        while state.cacheBytes > cacheLimit, let oldest = state.order.popFirst() {
            state.cacheBytes -= state.cache.removeValue(forKey: oldest)?.count ?? 0
        }
    }
}

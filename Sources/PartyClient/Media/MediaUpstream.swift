import Crypto
import Foundation
import Logging
import NIOCore
import PartyKit
import PartySecurity
import WebSocketTransport

/// A host's relay connection to its party server (`tandem host --server`): it offers the host's
/// files and answers the server's fetches with their bytes, so members without a copy can stream
/// them from the server. The host dials out; it reconnects with backoff if the connection drops.
/// Given the host member's ``MemberNode``, it follows the party: it connects to the node seating the
/// host (after a redirect or a takeover too), waits while the host is between nodes, and leaves a node
/// the host left. Given a ``WebMediaSource`` (the host's converter), it also answers the server's
/// requests for what browsers play of its files (protocol 8: ``RelayWebFetch``), so browser guests of
/// a party on `tandem serve` play items their browser cannot open as they are.
public struct MediaUpstream: Sendable {
    /// Reconnect backoff: 0.2 s doubling to 5 s.
    static let backoffStart = 0.2
    static let backoffMax = 5.0

    public let link: PartyLink
    /// Item index → local file.
    public let files: [Int: String]
    /// The host's seat token, read when (re)connecting (it proves this is the party's host).
    public let seat: @Sendable () async -> String?
    /// How the server is trusted: the same as the host's party connection.
    public let trust: ServerTrust
    /// The node seating the host member (``PartyMember/node``); nil: always the link's server.
    public let node: MemberNode?
    /// What converts `files` for browsers; nil: the server tells browser guests they are not converted.
    public let web: (any WebMediaSource)?
    public let logger: Logger

    /// `trust` defaults to what the link says (see ``ServerTrust/init(link:extraRoots:)``).
    public init(link: PartyLink, files: [Int: String], seat: @escaping @Sendable () async -> String?, trust: ServerTrust? = nil,
                node: MemberNode? = nil, web: (any WebMediaSource)? = nil, logger: Logger) {
        self.link = link
        self.web = web
        self.node = node
        self.trust = trust ?? ServerTrust(link: link)
        self.files = files
        self.seat = seat
        self.logger = logger
    }

    /// Runs until cancelled.
    public func run() async {
        var failures = 0
        while !Task.isCancelled {
            guard let server = await server() else { return }
            do {
                try await serveOnce(at: server)
                failures = 0
            } catch {
                failures += 1
                logger.debug("relay connection failed", metadata: ["error": "\(error)"])
            }
            if Task.isCancelled { return }
            let wait = min(Self.backoffStart * pow(2, Double(max(failures - 1, 0))), Self.backoffMax)
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }

    private struct NoSeat: Error {}

    /// Where to connect now: the node seating the host (waited for), or the link's server. Nil when cancelled.
    private func server() async -> ClusterTarget? {
        guard let node else { return ClusterTarget(host: link.host, port: link.port, trust: trust) }
        return await node.seated()
    }

    private func serveOnce(at server: ClusterTarget) async throws {
        guard let seat = await seat() else { throw NoSeat() }
        let connection = try await server.trust.connect(host: server.host, port: server.port, path: RelayProtocol.path(party: link.party),
                                                        limits: WebSocketLimits(maxMessageBytes: PartyProtocol.maxMessageBytes),
                                                        logger: logger)
        // The host left this node (the party moved, or is moving): so does its relay connection.
        let left = node.map { node in
            Task {
                _ = await node.change(from: server)
                if !Task.isCancelled { connection.close(reason: "the party moved") }
            }
        }
        defer { left?.cancel() }
        let readers = try files.mapValues { try FileReader(path: $0) }
        var items: [RelayOffer.Item] = []
        for (index, reader) in readers.sorted(by: { $0.key < $1.key }) {
            // The sampled hash names the content, for the server's disk cache.
            items.append(RelayOffer.Item(index: index, bytes: reader.size, sha256: try? await reader.sampledSHA256()))
        }
        connection.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: seat, items: items, web: web != nil))))
        await withTaskCancellationHandler {
            // Pieces are made beside the fetches (a segment takes a while; chunks must not wait for
            // it), and none outlives the connection.
            await withDiscardingTaskGroup { pieces in
                for await inbound in connection.inbound {
                    switch RelayProtocol.decode(inbound.text) {
                    case .fetch(let fetch): await answer(fetch, readers: readers, on: connection)
                    case .webFetch(let fetch): pieces.addTask { await answer(fetch, on: connection) }
                    default: continue
                    }
                }
                pieces.cancelAll()
            }
        } onCancel: {
            connection.close(reason: "host leaving")
        }
    }

    /// The bytes of a file's chunk.
    private func answer(_ fetch: RelayFetch, readers: [Int: FileReader], on connection: WebSocketConnection) async {
        guard let reader = readers[fetch.item], fetch.length > 0, fetch.length <= RelayProtocol.chunkBytes else {
            return connection.send(RelayProtocol.encode(.failed(RelayFailed(id: fetch.id, reason: "no such item or length"))))
        }
        do {
            // The bytes as they are, in one binary frame: base64 text would upload 4/3 of them.
            let data = try await reader.read(offset: fetch.offset, length: fetch.length)
            var frame = ByteBuffer(bytes: RelayProtocol.chunkHeader(id: fetch.id))
            frame.writeBytes(data)
            connection.send(binary: frame)
        } catch {
            connection.send(RelayProtocol.encode(.failed(RelayFailed(id: fetch.id, reason: "\(error)"))))
        }
    }

    /// A converted piece, whole, in piece frames; or why not (`unavailable`: a 404 for the browser).
    private func answer(_ fetch: RelayWebFetch, on connection: WebSocketConnection) async {
        func fail(_ reason: String, unavailable: Bool) {
            connection.send(RelayProtocol.encode(.failed(RelayFailed(id: fetch.id, reason: reason, unavailable: unavailable))))
        }
        guard let web else { return fail("this party's items are not converted for browsers here", unavailable: true) }
        guard files[fetch.item] != nil, let request = WebMediaPath.request(named: fetch.piece) else {
            return fail("no \(fetch.piece.prefix(40)) of item \(fetch.item) here", unavailable: true)
        }
        let bytes: [UInt8]
        do {
            bytes = try await web.answer(item: fetch.item, request)
        } catch let unavailable as WebMediaUnavailable {
            return fail(unavailable.reason, unavailable: true)
        } catch {
            return fail("\(error)", unavailable: false)
        }
        guard Int64(bytes.count) <= RelayProtocol.maxPieceBytes else {
            return fail("\(fetch.piece) of item \(fetch.item) is \(bytes.count) bytes, more than the relay carries", unavailable: false)
        }
        for frame in RelayProtocol.pieceFrames(id: fetch.id, bytes: bytes) {
            connection.send(binary: ByteBuffer(bytes: frame))
        }
    }
}

/// Reads byte ranges of one file on a thread of its own (file I/O never runs on the caller's).
final class FileReader: Sendable {
    let size: Int64
    private let path: String
    private let queue: DispatchQueue

    init(path: String) throws {
        self.path = path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        queue = DispatchQueue(label: "tandem.relay.read")
    }

    /// The file's ``MediaIdentity/sampleSHA256`` (SHA-256 over the chunks ``MediaSampling`` picks).
    func sampledSHA256() async throws -> String {
        var hash = SHA256()
        for range in MediaSampling.ranges(size: size) {
            let chunk = try await read(offset: range.offset, length: Int(range.length))
            guard chunk.count == Int(range.length) else { throw CocoaError(.fileReadCorruptFile) }
            hash.update(data: chunk)
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    func read(offset: Int64, length: Int) async throws -> Data {
        let path = self.path
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                    defer { try? handle.close() }
                    try handle.seek(toOffset: UInt64(offset))
                    return try handle.read(upToCount: length) ?? Data()
                })
            }
        }
    }
}

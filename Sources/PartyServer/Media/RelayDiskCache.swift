import Crypto
import DequeModule
import Foundation
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The relay's second cache tier: chunks of relayed items in a folder with a size cap, so a party
/// server keeps far more than its memory tier holds, and keeps it across restarts.
///
/// - Keyed by content: a chunk's file name is a hash of its party, item, the item's identity (size
///   and sampled SHA-256, as the host offers it) and its index, so a different file under the same
///   party and item never hits a stale chunk.
/// - Each file holds a small header (magic, length, SHA-256 of the bytes) and the bytes; a file
///   that is truncated, corrupted or of the wrong length is detected when read, removed, and the
///   chunk is fetched from the host again.
/// - Written atomically (a temporary file renamed into place); evicted oldest first (by the order
///   written, and at start by modification time).
/// - All file I/O runs on NIO's blocking-I/O thread pool, never on an event loop.
public final class RelayDiskCache: Sendable {
    /// `tandem serve`'s default cap: a few films' worth, small beside a disk.
    public static let defaultCapacityBytes: Int64 = 2 << 30
    static let magic: [UInt8] = Array("TNDC1\n".utf8)
    static let fileExtension = "chunk"
    /// Magic, a 4-byte big-endian length and the 32-byte SHA-256 of the bytes.
    static var headerBytes: Int { magic.count + 4 + 32 }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What a chunk is, for its file name.
    struct Key: Hashable, Sendable {
        var party: String
        var item: Int
        /// The item's identity as offered: size and sampled SHA-256.
        var identity: String
        var index: Int64

        var fileName: String {
            let digest = SHA256.hash(data: Data("\(party)\n\(item)\n\(identity)\n\(index)".utf8))
            return digest.map { String(format: "%02x", $0) }.joined() + "." + RelayDiskCache.fileExtension
        }
    }

    private struct Index {
        var sizes: [String: Int64] = [:]
        var order = Deque<String>()
        var bytes: Int64 = 0
    }

    public let directory: String
    public let capacityBytes: Int64
    private let index = Mutex(Index())
    private let pool: NIOThreadPool
    private let reads = Atomic<Int>(0)
    private let corrupt = Atomic<Int>(0)

    /// Uses (and creates) `directory`, keeping at most `capacityBytes` in it; files already there
    /// are indexed, oldest first. Throws when the folder cannot be made or read, naming it.
    public init(directory: String, capacityBytes: Int64 = RelayDiskCache.defaultCapacityBytes,
                pool: NIOThreadPool = .singleton) throws {
        self.directory = directory
        self.capacityBytes = max(capacityBytes, 0)
        self.pool = pool
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder.boolValue {
            throw Failure(description: "\(directory) is not a folder")
        }
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the folder \(directory) (is a file in its path, or is it not writable?)")
        }
        guard manager.isWritableFile(atPath: directory) else { throw Failure(description: "\(directory) is not writable") }
        let url = URL(fileURLWithPath: directory)
        let found = try manager.contentsOfDirectory(at: url, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey])
        var entries: [(name: String, date: Date, size: Int64)] = []
        for file in found {
            if file.lastPathComponent.hasPrefix(".tmp-") {
                try? manager.removeItem(at: file)  // a write cut short by a crash
                continue
            }
            guard file.pathExtension == Self.fileExtension else { continue }
            let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
            entries.append((file.lastPathComponent, values?.contentModificationDate ?? .distantPast, Int64(values?.fileSize ?? 0)))
        }
        var index = Index()
        for entry in entries.sorted(by: { $0.date < $1.date }) {
            index.sizes[entry.name] = entry.size
            index.order.append(entry.name)
            index.bytes += entry.size
        }
        self.index.withLock { $0 = index }
        for victim in evictions() { try? manager.removeItem(atPath: path(victim)) }
    }

    /// Chunks in the folder and their bytes on disk.
    public var count: Int { index.withLock { $0.sizes.count } }
    public var storedBytes: Int64 { index.withLock { $0.bytes } }
    /// Chunks served from disk, and files found damaged (removed, fetched again), since start.
    public var hits: Int { reads.load(ordering: .relaxed) }
    public var damaged: Int { corrupt.load(ordering: .relaxed) }

    func contains(_ key: Key) -> Bool { index.withLock { $0.sizes[key.fileName] != nil } }

    /// The chunk's bytes if its file is there and intact (exactly `length` bytes whose hash
    /// matches); a damaged file is removed and nil returned.
    func read(_ key: Key, length: Int) async -> [UInt8]? {
        let name = key.fileName
        guard index.withLock({ $0.sizes[name] != nil }) else { return nil }
        let path = path(name)
        let bytes = try? await pool.runIfActive { () -> [UInt8]? in
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return Self.decode([UInt8](data), length: length)
        }
        guard let found = bytes ?? nil else {
            corrupt.add(1, ordering: .relaxed)
            forget(name)
            _ = try? await pool.runIfActive { try? FileManager.default.removeItem(atPath: path) }
            return nil
        }
        reads.add(1, ordering: .relaxed)
        return found
    }

    /// Stores a chunk (atomically: a temporary file renamed into place), then evicts the oldest
    /// files beyond the cap. Errors (a full disk) only mean the chunk is not kept.
    func write(_ key: Key, _ bytes: [UInt8]) async {
        guard capacityBytes > 0 else { return }
        let name = key.fileName
        guard index.withLock({ $0.sizes[name] == nil }) else { return }
        let directory = self.directory
        let encoded = Self.encode(bytes)
        let written = (try? await pool.runIfActive { () -> Bool in
            let temporary = directory + "/.tmp-" + UUID().uuidString
            guard FileManager.default.createFile(atPath: temporary, contents: Data(encoded)) else { return false }
            guard rename(temporary, directory + "/" + name) == 0 else {
                try? FileManager.default.removeItem(atPath: temporary)
                return false
            }
            return true
        }) ?? false
        guard written else { return }
        index.withLock { index in
            guard index.sizes[name] == nil else { return }
            index.sizes[name] = Int64(encoded.count)
            index.order.append(name)
            index.bytes += Int64(encoded.count)
        }
        let victims = evictions()
        guard !victims.isEmpty else { return }
        let paths = victims.map(path)
        _ = try? await pool.runIfActive { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
    }

    /// Takes the oldest files off the index until it fits the cap; returns their names.
    private func evictions() -> [String] {
        index.withLock { index in
            var victims: [String] = []
            while index.bytes > capacityBytes, let oldest = index.order.popFirst() {
                index.bytes -= index.sizes.removeValue(forKey: oldest) ?? 0
                victims.append(oldest)
            }
            return victims
        }
    }

    private func forget(_ name: String) {
        index.withLock { index in
            guard let size = index.sizes.removeValue(forKey: name) else { return }
            index.bytes -= size
            index.order.removeAll { $0 == name }
        }
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        var out = magic
        out += [UInt8(count >> 24), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff), UInt8(count & 0xff)]
        out += Array(SHA256.hash(data: bytes))
        out += bytes
        return out
    }

    /// The bytes of an intact file of a chunk of `length` bytes; nil for anything else.
    static func decode(_ file: [UInt8], length: Int) -> [UInt8]? {
        guard file.count == headerBytes + length, file.starts(with: magic) else { return nil }
        let at = magic.count
        let count = Int(file[at]) << 24 | Int(file[at + 1]) << 16 | Int(file[at + 2]) << 8 | Int(file[at + 3])
        guard count == length else { return nil }
        let body = Array(file[headerBytes...])
        guard Array(SHA256.hash(data: body)) == Array(file[(at + 4)..<(at + 36)]) else { return nil }
        return body
    }

    /// `$XDG_CACHE_HOME/tandem/relay`, or `~/.cache/tandem/relay`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return base + "/tandem/relay"
    }
}

import Foundation
import TestSupport
import NIOCore
import NIOPosix
import SyncplayKit
@testable import SyncplayNet

/// Reads and sets a real mpv's properties over its JSON IPC socket (one JSON object per line).
actor MPVClient {
    private let channel: any Channel
    private var nextID = 1
    private var waiting: [Int: CheckedContinuation<SyncplayJSON, any Error>] = [:]

    struct Failure: Error, CustomStringConvertible { let description: String }

    private init(channel: any Channel) { self.channel = channel }

    /// Connects to mpv's socket at `path`, waiting up to `seconds` for mpv to create it and listen on it
    /// (the file appears at its bind, a moment before its listen: a connection then is refused).
    static func connect(path: String, within seconds: Double) async throws -> MPVClient {
        let (lines, continuation) = AsyncStream.makeStream(of: SyncplayConnection.Event.self)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SyncplayLineHandler(maxLineBytes: 1 << 20) { event in
                        continuation.yield(event)
                        if event == .closed { continuation.finish() }
                    })
                }
            }
        var connected: (any Channel)?
        try await waitUntil("mpv's IPC socket \(path) to accept", within: seconds) {
            guard FileManager.default.fileExists(atPath: path) else { return false }
            connected = try? await bootstrap.connect(unixDomainSocketPath: path).get()
            return connected != nil
        }
        guard let channel = connected else { throw Failure(description: "mpv's IPC socket \(path): not connected") }
        let client = MPVClient(channel: channel)
        Task { await client.read(lines) }
        return client
    }

    private func read(_ lines: AsyncStream<SyncplayConnection.Event>) async {
        for await event in lines {
            guard case .line(let bytes) = event,
                  let json = try? JSONDecoder().decode(SyncplayJSON.self, from: Data(bytes)),
                  let id = json["request_id"]?.int, let waiter = waiting.removeValue(forKey: id) else { continue }
            if json["error"]?.string == "success" {
                waiter.resume(returning: json["data"] ?? .null)
            } else {
                waiter.resume(throwing: Failure(description: "mpv: \(json["error"]?.string ?? "?")"))
            }
        }
        for waiter in waiting.values { waiter.resume(throwing: Failure(description: "mpv's socket closed")) }
        waiting.removeAll()
    }

    func command(_ arguments: [SyncplayJSON]) async throws -> SyncplayJSON {
        let id = nextID
        nextID += 1
        let request = SyncplayJSON.object(["command": .array(arguments), "request_id": .number(Double(id))])
        let line = String(decoding: try JSONEncoder().encode(request), as: UTF8.self) + "\n"
        return try await withCheckedThrowingContinuation { continuation in
            waiting[id] = continuation
            channel.writeAndFlush(channel.allocator.buffer(string: line), promise: nil)
        }
    }

    func get(_ property: String) async throws -> SyncplayJSON {
        try await command([.string("get_property"), .string(property)])
    }

    func set(_ property: String, _ value: SyncplayJSON) async throws {
        _ = try await command([.string("set_property"), .string(property), value])
    }

    func close() async { try? await channel.close() }
}

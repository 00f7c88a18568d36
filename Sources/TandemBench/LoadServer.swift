import TandemApp
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server a `tandem bench load` run measures: a `tandem serve` it starts as its child (the
/// default: loopback, a free port, a throwaway state folder, its log in a file), or one already
/// running, named by address, process id and fingerprint.
package final class LoadServer {
    /// How long a started server may take to say where it listens.
    package static let startTimeout = 30.0

    package let host: String
    package let port: Int
    package let pid: Int32
    /// The certificate fingerprint to pin; nil for a plain (`--insecure`) server.
    package let fingerprint: String?
    private let child: Process?
    private let folder: String?

    package init(host: String, port: Int, pid: Int32, fingerprint: String?) {
        self.host = host
        self.port = port
        self.pid = pid
        self.fingerprint = fingerprint
        child = nil
        folder = nil
    }

    private init(host: String, port: Int, child: Process, fingerprint: String?, folder: String) {
        self.host = host
        self.port = port
        pid = child.processIdentifier
        self.fingerprint = fingerprint
        self.child = child
        self.folder = folder
    }

    /// Starts `tandem serve` on 127.0.0.1 (TLS unless `insecure`) and waits for its `listening on` (and
    /// `fingerprint`) lines. Its standard error goes to a log file named in any failure.
    package static func start(insecure: Bool) throws -> LoadServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-load-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = folder + "/serve.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ChildProcess.selfPath)
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--state-dir", folder + "/state", "--cache-size", "0"]
            + (insecure ? ["--insecure"] : [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let lines = LineReader(out.fileHandleForReading)
        var port: Int?
        var fingerprint: String?
        let deadline = Date().addingTimeInterval(startTimeout)
        while port == nil || (!insecure && fingerprint == nil) {
            guard let line = lines.next(before: deadline) else {
                process.terminate()
                process.waitUntilExit()
                throw BenchError("tandem serve did not say where it listens within \(Int(startTimeout)) s (its log: \(log))")
            }
            if line.hasPrefix("listening on "), let colon = line.lastIndex(of: ":") {
                port = Int(line[line.index(after: colon)...])
            } else if line.hasPrefix("fingerprint ") {
                fingerprint = String(line.dropFirst("fingerprint ".count))
            }
        }
        return LoadServer(host: "127.0.0.1", port: port!, child: process, fingerprint: fingerprint, folder: folder)
    }

    /// Stops a server this run started (SIGTERM, then waits) and removes its folder; a server named
    /// by `--server` is left running.
    package func stop() {
        guard let child else { return }
        if child.isRunning {
            child.terminate()
            child.waitUntilExit()
        }
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Whether the server process is still there.
    package var isAlive: Bool { kill(pid, 0) == 0 }
}

/// Lines from a pipe, read by a thread of its own (a started server's first lines), so that waiting
/// for them has a deadline.
private final class LineReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false

    package init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    condition.lock()
                    lines.append(line)
                    condition.signal()
                    condition.unlock()
                }
            }
            condition.lock()
            ended = true
            condition.signal()
            condition.unlock()
        }
        thread.start()
    }

    /// The next line, or nil at the end of the stream or the deadline.
    package func next(before deadline: Date) -> String? {
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty && !ended {
            if !condition.wait(until: deadline) { return nil }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }
}

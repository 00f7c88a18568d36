import Foundation
import NIOCore
import NIOPosix

/// Debian's syncplay-server, and syncplay clients driving mpv, as child processes on loopback.
/// Each is terminated when its test is done.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let log: URL

    /// `environment`: more variables for the child (e.g. `SSL_CERT_FILE`, the roots syncplay trusts).
    init(_ executable: String, _ arguments: [String], home: URL, log name: String, environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["PYTHONUNBUFFERED"] = "1"  // syncplay's console lines as they happen, not at exit
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "TERM")
        environment.merge(extra) { $1 }
        process.environment = environment
        log = home.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// How long a child may take to exit on SIGTERM before it is killed (syncplay-server's
    /// Twisted reactor can ignore SIGTERM).
    static let termGrace = 3.0

    /// Ends the child: SIGTERM, then SIGKILL after ``termGrace``; returns once it has exited.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(Self.termGrace)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { usleep(20_000) }
    }
}

enum SyncplayBinaries {
    static let server = "/usr/bin/syncplay-server"
    static let client = "/usr/bin/syncplay"
    static let mpv = "/usr/bin/mpv"

    /// Why the real-thing tests cannot run here, or nil when they can.
    static var missing: String? {
        let absent = [server, client, mpv].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        return absent.isEmpty ? nil : "not installed: \(absent.joined(separator: ", ")) (scripts/test.sh installs syncplay-server, syncplay and mpv)"
    }

    /// A loopback port nobody listens on now.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Waits until something accepts connections on `port`.
    static func waitForListener(port: Int, within seconds: Double) async throws {
        try await TestSupport.eventually(seconds, "a listener on port \(port)") {
            guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get() else { return false }
            try? await channel.close()
            return true
        }
    }
}

extension ChildProcess {
    /// Kills the grandchildren whose command line holds `argument` (mpv, which a syncplay client
    /// starts with our unique socket path and leaves running when it is itself terminated).
    static func killDescendants(holding argument: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = Int32(entry), pid != getpid(),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  String(decoding: data, as: UTF8.self).contains(argument) else { continue }
            kill(pid, SIGKILL)
        }
    }
}

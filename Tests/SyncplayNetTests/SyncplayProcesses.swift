import Foundation
import TestSupport

/// Debian's syncplay-server, and syncplay clients driving mpv, as child processes on loopback,
/// their output in a log file in their home. Each is stopped when its test is done.
final class SyncplayProcess: Sendable {
    let child: ChildProcess
    let log: URL

    /// `environment`: more variables for the child (e.g. `SSL_CERT_FILE`, the roots syncplay trusts).
    init(_ executable: String, _ arguments: [String], home: URL, log name: String, environment extra: [String: String] = [:]) throws {
        log = home.appendingPathComponent(name)
        var environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                           "PYTHONUNBUFFERED": "1"]  // syncplay's console lines as they happen, not at exit
        environment.merge(extra) { $1 }
        child = try ChildProcess(executable, arguments, adding: environment, removing: ["DISPLAY", "TERM"],
                                 standardOutput: .file(log.path), standardError: .standardOutput)
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// How long a child may take to exit on SIGTERM before it is killed (syncplay-server's
    /// Twisted reactor can ignore SIGTERM).
    static let termGrace = 3.0

    /// Ends the child without waiting: SIGTERM now, SIGKILL after ``termGrace`` if it is still
    /// there (a task of its own sees to it, so a `defer` can call this).
    func stop() {
        let child = child
        child.terminate()
        Task { await child.stop(grace: Self.termGrace) }
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
}

extension SyncplayProcess {
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

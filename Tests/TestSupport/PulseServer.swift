import Foundation
import Synchronization

/// A real PulseAudio server (Debian's `pulseaudio`) of one test's own: its socket, runtime and
/// state folders in a temporary folder, so tests running at once never share one. It has a stereo
/// null sink `rec` and two mono sinks on it, `left` and `right` (`module-remap-sink`): what two
/// players play into `left` and `right` is recorded together, on one clock, from `rec.monitor`.
public final class PulseServer: Sendable {
    /// The sinks every server has.
    public static let recordingSink = "rec"
    public static let leftSink = "left"
    public static let rightSink = "right"
    /// The recording's sample rate.
    public static let rate = 48000

    public let folder: TemporaryFolder
    /// The native-protocol socket.
    public let socket: String
    private let daemon = Mutex<ChildProcess?>(nil)

    /// True where `pulseaudio` is installed (scripts/test.sh installs it).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") }

    /// Starts the server and waits until it answers.
    public init() async throws {
        folder = try TemporaryFolder("pulse")
        socket = temporarySocketPath("pulse")
        try start()
        try await waitUntilAnswering()
    }

    /// `PULSE_SERVER` for a client of this server.
    public var address: String { "unix:\(socket)" }

    /// A client's environment additions: this server, and `sink` as its default sink.
    public func client(sink: String? = nil) -> [String: String] {
        var variables = ["PULSE_SERVER": address]
        if let sink { variables["PULSE_SINK"] = sink }
        return variables
    }

    private func start() throws {
        let config = """
            load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
            load-module module-null-sink sink_name=\(Self.recordingSink) channels=2 rate=\(Self.rate) format=float32le
            load-module module-remap-sink sink_name=\(Self.leftSink) master=\(Self.recordingSink) channels=1 master_channel_map=front-left channel_map=mono remix=no
            load-module module-remap-sink sink_name=\(Self.rightSink) master=\(Self.recordingSink) channels=1 master_channel_map=front-right channel_map=mono remix=no
            set-default-sink \(Self.leftSink)

            """
        let path = folder.path("server.pa")
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        // Root may run a per-user server (-n: no default script, so only the modules above; no
        // pid file, no autospawn, its folders its own).
        let child = try ChildProcess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--realtime=no",
            "--high-priority=no", "--log-target=stderr", "--log-level=error", "-F", path,
        ], adding: ["HOME": folder.path, "PULSE_RUNTIME_PATH": folder.path("run"), "PULSE_STATE_PATH": folder.path("state"),
                    "XDG_RUNTIME_DIR": folder.path("run")],
           removing: ["PULSE_SERVER", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY"], standardOutput: .discard, standardError: .capture)
        daemon.withLock { $0 = child }
    }

    private func waitUntilAnswering() async throws {
        try await waitUntil("PulseAudio at \(socket) to answer", within: 20) {
            guard daemon.withLock({ $0?.isRunning }) == true else {
                throw ServerFailed(output: daemon.withLock { $0?.standardError } ?? "")
            }
            return (try? await pactl(["info"], within: 5)) != nil
        }
    }

    /// Runs `pactl` against this server; throws when it fails.
    @discardableResult
    public func pactl(_ arguments: [String], within seconds: Double = 20) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/pactl", arguments, adding: ["PULSE_SERVER": address], within: seconds)
        guard result.status == 0 else { throw ServerFailed(output: "pactl \(arguments.joined(separator: " ")): \(result.standardError)") }
        return result.standardOutput
    }

    /// Records `rec.monitor` (left and right, float32) into `path` until the returned process is
    /// stopped.
    public func record(to path: String) throws -> ChildProcess {
        try ChildProcess("/usr/bin/parec", [
            "--device=\(Self.recordingSink).monitor", "--raw", "--format=float32le", "--rate=\(Self.rate)", "--channels=2",
            "--latency-msec=20",
        ], adding: ["PULSE_SERVER": address], standardOutput: .file(path), standardError: .capture)
    }

    /// Kills the server (as a crash would) and waits until it is gone.
    public func kill() async {
        let child = daemon.withLock { $0 }
        child?.kill()
        _ = try? await child?.exit(within: 20)
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// Starts the server again on the same socket.
    public func restart() async throws {
        await kill()
        try start()
        try await waitUntilAnswering()
    }

    /// Stops the server and removes its folders.
    public func stop() async {
        let child = daemon.withLock { $0 }
        await child?.stop()
        try? FileManager.default.removeItem(atPath: socket)
        folder.remove()
    }

    public struct ServerFailed: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "PulseAudio failed: \(output)" }
    }
}

/// Clicks in a stereo float32 recording: where each channel's impulses start, to the sample.
public enum ClickTrack {
    /// The frames at which a channel's sound rises above `threshold` after at least `quiet` frames of
    /// silence: each click's first sample.
    public static func onsets(_ samples: [Float], channel: Int, channels: Int = 2, threshold: Float = 0.25,
                              quiet: Int = 2400) -> [Int] {
        var onsets: [Int] = []
        var silent = quiet
        var frame = 0
        var index = channel
        while index < samples.count {
            if abs(samples[index]) >= threshold {
                if silent >= quiet { onsets.append(frame) }
                silent = 0
            } else {
                silent += 1
            }
            frame += 1
            index += channels
        }
        return onsets
    }

    /// Reads a raw float32 recording.
    public static func read(_ path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// For each click on the left, the nearest click on the right within `window` frames: right − left,
    /// in seconds (positive: the right was heard later).
    public static func lags(left: [Int], right: [Int], rate: Int = PulseServer.rate, window: Int = 12000) -> [Double] {
        left.compactMap { l in
            guard let r = right.min(by: { abs($0 - l) < abs($1 - l) }), abs(r - l) <= window else { return nil }
            return Double(r - l) / Double(rate)
        }
    }
}

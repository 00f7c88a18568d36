import FFmpegKit
import Foundation
import PlayerCore
import Synchronization
import TestSupport

/// The bundled clips (assets/) and the ffmpeg CLI as the reference decoder.
enum TestMedia {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("assets").appendingPathComponent(name).path }

    static let videoClips = ["h264-aac.mp4", "vp9-opus.webm", "video-only.mp4", "vfr.mkv", "odd-dims.mp4",
                             "odd-dims-420.webm", "10bit.mkv"]
    static let audioClips = ["h264-aac.mp4", "vp9-opus.webm", "audio-only.m4a", "odd-dims.mp4"]

    /// Runs a command (looked up in PATH) and returns its stdout.
    static func run(_ executable: String, _ arguments: [String]) async throws -> Data {
        Data(try await ChildProcess.run(executable, arguments, standardError: .discard).standardOutputBytes)
    }

    /// (size, md5) of every frame ffmpeg decodes from the first video stream, from `start` on (accurate `-ss`).
    static func ffmpegFrameMD5(_ file: String, start: Double? = nil, frames: Int? = nil) async throws -> [FrameHash] {
        var args = ["-v", "quiet"]
        if let start { args += ["-ss", String(start)] }
        args += ["-noautorotate", "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough"]
        if let frames { args += ["-frames:v", String(frames)] }
        args += ["-f", "framemd5", "-"]
        let text = String(decoding: try await run("ffmpeg", args), as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return FrameHash(size: Int(fields[4]) ?? -1, md5: fields[5])
        }
    }

    /// Samples per channel ffmpeg decodes from the first audio stream.
    static func ffmpegAudioSamples(_ file: String) async throws -> Int {
        try await run("ffmpeg", ["-v", "quiet", "-i", file, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"]).count / 2
    }
}

struct FrameHash: Equatable, CustomStringConvertible {
    var size: Int
    var md5: String
    var description: String { "\(size),\(md5)" }
}

/// Records every presented picture: position, host time and hash.
final class RecordingVideoSink: VideoSink {
    struct Record: Sendable {
        var position: Double
        var hostTime: Double
        var size: Int
        var md5: String
    }

    private let state = Mutex<(records: [Record], buffer: [UInt8])>(([], []))
    let hashing: Bool
    let presentationDelay: Double
    let refreshGrid: RefreshGrid?

    init(hashing: Bool = true, presentationDelay: Double = 0, refreshGrid: RefreshGrid? = nil) {
        self.hashing = hashing
        self.presentationDelay = presentationDelay
        self.refreshGrid = refreshGrid
    }

    func present(_ frame: VideoFrame, hostTime: Double) {
        state.withLock { s in
            var size = 0, md5 = ""
            if hashing, let n = try? frame.frame.copyPackedImage(into: &s.buffer) {
                size = n
                md5 = s.buffer.withUnsafeBytes { md5Hex(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
            s.records.append(Record(position: frame.position, hostTime: hostTime, size: size, md5: md5))
        }
    }

    func finish() {}

    var records: [Record] { state.withLock { $0.records } }
    var hashes: [FrameHash] { records.map { FrameHash(size: $0.size, md5: $0.md5) } }
    func reset() { state.withLock { $0.records.removeAll() } }

    /// Waits (polling, bounded) until `predicate` holds for the records; returns whether it did.
    func wait(seconds: Double = defaultBound, until predicate: ([Record]) -> Bool) async -> Bool {
        await eventually(within: seconds) { predicate(records) }
    }
}

/// An audio sink that pulls only when the test says, at the test's (manual) time.
final class ManualAudioSink: AudioSink {
    private let source = Mutex<(any AudioSource)?>(nil)
    let outputFormat = Mutex<AudioFormat?>(nil)

    func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        AudioFormat(sampleRate: sourceRate, channels: 1, sample: .float32)
    }

    var latency: Double { 0 }
    func start(_ source: any AudioSource, format: AudioFormat) {
        self.source.withLock { $0 = source }
        outputFormat.withLock { $0 = format }
    }
    func stop() { source.withLock { $0 = nil } }

    /// Pulls `frames` mono float samples as a device would now, the first heard `heardIn` seconds
    /// from now (a device with that much already queued).
    func pull(frames: Int, heardIn: Double = 0) -> [Float] {
        var out = [Float](repeating: .nan, count: frames)
        let src = source.withLock { $0 }
        out.withUnsafeMutableBytes { _ = src?.pull(into: $0, frames: frames, heardIn: heardIn) }
        return out
    }
}

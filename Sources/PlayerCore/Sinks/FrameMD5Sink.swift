import FFmpegKit
import Foundation
import Synchronization

/// Writes one line per presented picture in the manner of ffmpeg's framemd5 muxer:
/// `0, pts, pts, duration, size, md5` in the stream time base, where the md5 covers the
/// planes packed with alignment 1 in the decoded pixel format.
public final class FrameMD5Sink: VideoSink {
    private struct State {
        var output: FileHandle
        var closeOnFinish: Bool
        var buffer: [UInt8] = []
        var wroteHeader = false
    }

    private let state: Mutex<State>

    /// Writes to `path`, or to standard output for "-".
    public init(path: String) throws {
        if path == "-" {
            state = Mutex(State(output: .standardOutput, closeOnFinish: false))
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            state = Mutex(State(output: try FileHandle(forWritingTo: URL(fileURLWithPath: path)), closeOnFinish: true))
        }
    }

    public func present(_ frame: VideoFrame, hostTime: Double) {
        state.withLock { s in
            if !s.wroteHeader {
                s.output.write(Data("#format: frame checksums\n#version: 2\n#hash: MD5\n#tb 0: \(frame.timeBase)\n#stream#, dts,        pts, duration,     size, hash\n".utf8))
                s.wroteHeader = true
            }
            let line: String
            do {
                let size = try frame.frame.copyPackedImage(into: &s.buffer)
                let md5 = s.buffer.withUnsafeBytes { md5Hex(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }
                let duration = Int64((frame.duration / frame.timeBase.value).rounded())
                line = "0, \(pad(frame.timestamp)), \(pad(frame.timestamp)), \(pad(duration, 8)), \(pad(Int64(size), 8)), \(md5)\n"
            } catch {
                line = "# frame at \(frame.position): \(error)\n"
            }
            s.output.write(Data(line.utf8))
        }
    }

    public func finish() {
        state.withLock { s in
            if s.closeOnFinish { try? s.output.close() }
        }
    }

    private func pad(_ v: Int64, _ width: Int = 10) -> String {
        let s = String(v)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }
}

/// Saves one presented picture as a PNG file: the first at or after `position` (the first of all by default).
public final class PNGSnapshotSink: VideoSink {
    public let path: String
    private let position: Double
    private let done = Atomic<Bool>(false)
    private let failure = Mutex<String?>(nil)

    public init(path: String, at position: Double = 0) {
        self.path = path
        self.position = position
    }

    /// Whether the snapshot was written, and the error if writing failed.
    public var written: Bool { done.load(ordering: .acquiring) && failure.withLock { $0 } == nil }
    public var error: String? { failure.withLock { $0 } }

    public func present(_ frame: VideoFrame, hostTime: Double) {
        guard frame.position >= position - 1e-6, !done.load(ordering: .acquiring) else { return }
        do {
            let png = try PNGEncoder().encode(frame.frame)
            if !FileManager.default.createFile(atPath: path, contents: Data(png)) {
                failure.withLock { $0 = "\(path): cannot write" }
            }
        } catch {
            failure.withLock { $0 = "\(path): \(error)" }
        }
        done.store(true, ordering: .releasing)
    }

    public func finish() {}
}

import FFmpegKit
import Foundation
import Synchronization

/// Writes what is played to a 16-bit PCM WAV file at the source's rate and channel count,
/// paced like ``NullAudioSink`` (real time, or as fast as decoded).
public final class WAVAudioSink: AudioSink {
    public let path: String
    private let file: Mutex<FileHandle?>
    private let dataBytes = Atomic<Int>(0)
    private let channels = Atomic<Int>(0)
    private let rate = Atomic<Int>(0)
    private let output: Mutex<PacedAudioOutput?> = Mutex(nil)
    private let realTime: Bool

    /// Creates (truncates) the file now, so a path that cannot be written fails before playback.
    public init(path: String, realTime: Bool = true) throws {
        self.path = path
        self.realTime = realTime
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        file = Mutex(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
    }

    public func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        AudioFormat(sampleRate: sourceRate, channels: sourceChannels, sample: .int16)
    }

    public var latency: Double { 0 }

    public func start(_ source: any AudioSource, format: AudioFormat) {
        channels.store(format.channels, ordering: .relaxed)
        rate.store(format.sampleRate, ordering: .relaxed)
        file.withLock { $0?.write(Self.header(format: format, dataBytes: 0)) }
        // The cycle self → output → closure → self is broken in stop().
        let out = PacedAudioOutput(realTime: realTime) { [self] block in
            file.withLock { $0?.write(Data(block)) }
            dataBytes.add(block.count, ordering: .relaxed)
        }
        output.withLock { $0 = out }
        out.start(source, format: format)
    }

    /// Stops pulling, fixes up the header sizes and closes the file.
    public func stop() {
        output.withLock { out in defer { out = nil }; return out }?.stop()
        file.withLock { handle in
            guard let h = handle else { return }
            let format = AudioFormat(sampleRate: rate.load(ordering: .relaxed), channels: channels.load(ordering: .relaxed),
                                     sample: .int16)
            if format.channels > 0 {
                try? h.seek(toOffset: 0)
                h.write(Self.header(format: format, dataBytes: dataBytes.load(ordering: .relaxed)))
            }
            try? h.close()
            handle = nil
        }
    }

    static func header(format: AudioFormat, dataBytes: Int) -> Data {
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(36 + dataBytes)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(format.channels)
        u32(format.sampleRate); u32(format.sampleRate * format.bytesPerFrame); u16(format.bytesPerFrame); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        return d
    }
}

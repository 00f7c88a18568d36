import CFFmpeg
import FFmpegKit
import Testing
import TestSupport

/// One item of two files (a clip's picture and its sound apart): streams numbered as one, packets
/// read as a muxer interleaves them, seeks of both, and failures naming the file.
@Suite struct MediaInputTests {
    /// Every packet of `input` until its end: (stream, time in seconds).
    static func packets(_ input: MediaInput) throws -> [(stream: Int, time: Double)] {
        let packet = Packet()
        var read: [(Int, Double)] = []
        while try input.read(into: packet) == .ok {
            let ts = packet.dts != tandem_nopts_value() ? packet.dts : packet.pts
            read.append((packet.streamIndex, Double(ts) * input.timeBase(ofStream: packet.streamIndex).value))
        }
        return read
    }

    @Test func streamsAreNumberedAsOneContainersAndTheSoundFileIsChosen() async throws {
        let folder = try TemporaryFolder("media-input")
        defer { folder.remove() }
        let clip = try await SplitClip.make(in: folder)
        let input = try MediaInput(url: clip.video, externalURLs: [clip.sound])
        let info = input.info()
        let whole = try InputFile(url: clip.original).info()
        #expect(info.streams.map(\.index) == [0, 1])
        #expect(info.streams.map(\.type) == whole.streams.map(\.type) && info.streams.map(\.codec) == whole.streams.map(\.codec))
        #expect(input.bestStream(.video) == 0 && input.bestStream(.audio) == 1)
        #expect(input.locate(1).file.url == clip.sound && input.locate(1).index == 0)
        #expect(abs((info.durationSeconds ?? 0) - (whole.durationSeconds ?? -1)) < 0.05)
    }

    @Test func packetsOfBothFilesAreInterleavedByTime() async throws {
        let folder = try TemporaryFolder("media-input")
        defer { folder.remove() }
        let clip = try await SplitClip.make(in: folder)
        let merged = try Self.packets(MediaInput(url: clip.video, externalURLs: [clip.sound]))
        let whole = try Self.packets(MediaInput(url: clip.original))
        // Each stream's packets, all of them, in their own order.
        for stream in [0, 1] {
            #expect(merged.filter { $0.stream == stream }.map(\.time) == whole.filter { $0.stream == stream }.map(\.time))
        }
        // Never one stream read far ahead of the other (the first file read to its end first would be 4 s).
        var last: [Int: Double] = [:]
        var widest = 0.0
        for packet in merged {
            last[packet.stream] = packet.time
            if let video = last[0], let sound = last[1] { widest = max(widest, abs(video - sound)) }
        }
        #expect(widest < 0.25, "streams read \(widest) s apart")
    }

    @Test func aSeekMovesBothFiles() async throws {
        let folder = try TemporaryFolder("media-input")
        defer { folder.remove() }
        let clip = try await SplitClip.make(in: folder)
        let input = try MediaInput(url: clip.video, externalURLs: [clip.sound])
        _ = try Self.packets(input)  // both at their end
        try input.seek(toSeconds: 2.5)
        let after = try Self.packets(input)
        for stream in [0, 1] {
            let first = try #require(after.first { $0.stream == stream }, "stream \(stream) read nothing after the seek")
            // The video from its keyframe at 2 s; the sound from about where it was asked.
            #expect(first.time <= 2.5 && first.time >= 1.9, "stream \(stream) starts at \(first.time)")
        }
    }

    @Test func aSoundFileThatDoesNotOpenIsNamed() async throws {
        let folder = try TemporaryFolder("media-input")
        defer { folder.remove() }
        let clip = try await SplitClip.make(in: folder)
        let missing = folder.path("nothing.m4a")
        #expect(throws: OpenError(url: missing, reason: "no such file")) {
            try MediaInput(url: clip.video, externalURLs: [missing])
        }
    }
}

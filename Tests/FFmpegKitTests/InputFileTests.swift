import FFmpegKit
import Foundation
import Testing
import TestSupport

enum Assets {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("assets").appendingPathComponent(name).path
    }
}

@Suite struct InputFileTests {
    @Test func headersBecomeLibavformatsHTTPOptions() {
        #expect(InputFile.options(sending: ["User-Agent": "Tandem/1", "Referer": "https://a/page", "Cookie": "id=1"])
                == ["user_agent": "Tandem/1", "headers": "Cookie: id=1\r\nReferer: https://a/page\r\n"])
        #expect(InputFile.options(sending: [:]).isEmpty)
    }

    /// `tandem probe` reports what ffprobe reports.
    @Test(arguments: ["h264-aac.mp4", "vp9-opus.webm", "audio-only.m4a", "odd-dims.mp4", "10bit.mkv"])
    func infoAgreesWithFFprobe(clip: String) async throws {
        let file = Assets.path(clip)
        let info = try InputFile(url: file).info()
        let data = Data(try await ChildProcess.run("ffprobe", ["-v", "quiet", "-of", "json", "-show_streams", "-show_format", file])
            .standardOutputBytes)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let format = try #require(json["format"] as? [String: Any])
        #expect(info.container == format["format_name"] as? String)
        #expect(abs((info.durationSeconds ?? 0) - (Double(format["duration"] as? String ?? "") ?? -1)) < 0.001)
        #expect(info.streams.count == streams.count)
        for (mine, theirs) in zip(info.streams, streams) {
            #expect(mine.codec == theirs["codec_name"] as? String)
            #expect(mine.type.rawValue == theirs["codec_type"] as? String)
            #expect("\(mine.timeBase)" == theirs["time_base"] as? String)
            if mine.type == .video {
                #expect(mine.width == theirs["width"] as? Int && mine.height == theirs["height"] as? Int)
                #expect(mine.pixelFormat == theirs["pix_fmt"] as? String)
            } else if mine.type == .audio {
                #expect(mine.sampleRate.map(String.init) == theirs["sample_rate"] as? String)
                #expect(mine.channels == theirs["channels"] as? Int)
            }
        }
    }

    @Test func missingFileIsNamed() {
        #expect(throws: OpenError(url: "/nonexistent/x.mp4", reason: "no such file")) {
            try InputFile(url: "/nonexistent/x.mp4")
        }
    }

    /// Every stream's decoder is the stream's codec, and its first frame has the size or the
    /// sample rate and channels the container announces.
    @Test(arguments: ["h264-aac.mp4", "vp9-opus.webm"])
    func eachStreamDecodesToWhatItsInfoSays(clip: String) throws {
        let input = try InputFile(url: Assets.path(clip))
        let info = input.info()
        let decoders = try (0..<input.streamCount).map { i throws(OpenError) in try Decoder(input: input, streamIndex: i) }
        var firsts: [Int: Frame] = [:]
        let packet = Packet()
        while firsts.count < decoders.count, try input.read(into: packet) == .ok {
            let i = packet.streamIndex
            guard firsts[i] == nil else { continue }
            _ = try decoders[i].send(packet)
            let frame = Frame()
            if try decoders[i].receive(into: frame) == .ok { firsts[i] = frame }
        }
        for (i, decoder) in decoders.enumerated() {
            let stream = info.streams[i]
            #expect(decoder.codecName == stream.codec && decoder.kind == stream.type && decoder.timeBase == stream.timeBase)
            let frame = try #require(firsts[i], "no frame from stream \(i)")
            if stream.type == .video {
                #expect(frame.width == stream.width && frame.height == stream.height)
                #expect(frame.pixelFormatName == stream.pixelFormat)
            } else {
                #expect(frame.sampleRate == stream.sampleRate && frame.channelCount == stream.channels)
                #expect(frame.sampleCount > 0)
            }
        }
    }
}

@Suite struct CodecHelpersTests {
    @Test func md5MatchesKnownDigest() {
        let digest = Array("The quick brown fox jumps over the lazy dog".utf8).withUnsafeBytes { md5Hex($0) }
        #expect(digest == "9e107d9d372bb6826bd81d3542a419d6")
    }

    @Test func pngEncoderWritesAPictureFFmpegReadsBack() throws {
        let input = try InputFile(url: Assets.path("odd-dims-420.webm"))
        let decoder = try Decoder(input: input, streamIndex: 0)
        let packet = Packet(), frame = Frame()
        var decoded = false
        while !decoded, try input.read(into: packet) == .ok {
            guard packet.streamIndex == 0 else { continue }
            _ = try decoder.send(packet)
            decoded = try decoder.receive(into: frame) == .ok
        }
        #expect(decoded)
        let png = try PNGEncoder().encode(frame)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-\(getpid()).png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(png))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let back = try InputFile(url: path).info()
        #expect(back.streams.first?.width == 161 && back.streams.first?.height == 97)
        #expect(back.streams.first?.codec == "png")
    }
}

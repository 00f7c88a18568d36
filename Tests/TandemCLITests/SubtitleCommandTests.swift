import FFmpegKit
import Foundation
import Testing
import TestSupport

/// `tandem play --snapshot` with subtitles and `tandem probe`'s track fields, run as a user would
/// (the built binary on files made by the ffmpeg CLI).
@Suite struct SubtitleCommandTests {
    /// White pixels in the bottom quarter of a snapshot (the grey picture has none).
    static func textPixels(_ png: String) throws -> Int {
        let image = try StillPicture.decode(png, maxSide: 4096)
        var n = 0
        for y in (image.height * 3 / 4)..<image.height {
            for x in 0..<image.width {
                let o = (y * image.width + x) * 4
                if image.pixels[o] > 200 && image.pixels[o + 1] > 200 && image.pixels[o + 2] > 200 { n += 1 }
            }
        }
        return n
    }

    static func snapshot(_ folder: URL, at start: Double, _ extra: [String] = []) async throws -> (status: Int32, stderr: String, text: Int) {
        let png = folder.appendingPathComponent("shot-\(UUID().uuidString).png").path
        let result = try await URLOpenErrorTests.run(["play", "--fast", "--start", "\(start)", "--end", "\(start + 0.2)",
                                                "--snapshot", png] + extra + [folder.appendingPathComponent("film.mkv").path])
        return (result.status, result.stderr, result.status == 0 ? try textPixels(png) : 0)
    }

    @Test func aSameNamedSRTNextToTheVideoShowsInTheSnapshot() async throws {
        let folder = try await SubtitledFilm.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let during = try await Self.snapshot(folder, at: 1.48)
        #expect(during.status == 0, "\(during.stderr)")
        #expect(during.stderr.isEmpty)  // libass says nothing unless something is wrong
        #expect(during.text > 40)
        #expect(try await Self.snapshot(folder, at: 2.2).text == 0)
        #expect(try await Self.snapshot(folder, at: 1.48, ["--sid", "no"]).text == 0)
        // 0.6 s later: the event covers 1.6–2.6 s.
        #expect(try await Self.snapshot(folder, at: 1.2, ["--sub-delay", "0.6"]).text == 0)
        #expect(try await Self.snapshot(folder, at: 2.4, ["--sub-delay", "0.6"]).text > 40)
    }

    @Test func aMissingSubFileIsOneLineAndExitOne() async throws {
        let folder = try await SubtitledFilm.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("nope.srt").path
        let result = try await Self.snapshot(folder, at: 1.48, ["--sub-file", missing])
        #expect(result.status == 1)
        #expect(result.stderr == "tandem: \(missing): no such file\n")
    }

    @Test func probeShowsLanguageTitleFlagsAndAspect() async throws {
        let folder = try await SubtitledFilm.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mkv = folder.appendingPathComponent("tracks.mkv").path
        try await SubtitledFilm.ffmpeg(["-i", folder.appendingPathComponent("film.mkv").path, "-i", folder.appendingPathComponent("film.srt").path,
                         "-map", "0", "-map", "1", "-c:v", "copy", "-c:s", "srt", "-aspect", "16:9",
                         "-metadata:s:s:0", "language=eng", "-metadata:s:s:0", "title=Forced bits",
                         "-disposition:s:0", "default+forced", mkv])
        let probe = try await ChildProcess.runTandem(["probe", mkv])
        let info = try JSONDecoder().decode(MediaInfo.self, from: Data(probe.standardOutputBytes))
        let subtitle = try #require(info.streams.first { $0.type == .subtitle })
        #expect(subtitle.language == "eng" && subtitle.title == "Forced bits")
        #expect(subtitle.isDefault == true && subtitle.isForced == true)
        #expect(info.streams.first { $0.type == .video }?.displayAspect == "16:9")
    }
}

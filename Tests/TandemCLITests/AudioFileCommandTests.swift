import Foundation
import Testing
import TestSupport

/// `tandem play FILE --audio-file SOUND` (mpv's option): a clip's picture and its sound, split into two
/// files, play on one clock as the clip does, picture for picture and sample for sample.
@Suite struct AudioFileCommandTests {
    /// Plays `arguments` unpaced into a framemd5 and a WAV in `folder` named `name`; returns their contents.
    static func played(_ arguments: [String], into folder: TemporaryFolder, name: String,
                       adding environment: [String: String] = [:]) async throws -> (frames: [String], sound: Data) {
        let md5 = folder.path("\(name).md5"), wav = folder.path("\(name).wav")
        let result = try await ChildProcess.runTandem(["play", "--headless", "--fast", "--framemd5", md5, "--wav", wav] + arguments,
                                                      adding: environment, within: 90)
        #expect(result.status == 0, "\(result.standardError)")
        let frames = try String(contentsOfFile: md5, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        return (frames, try Data(contentsOf: URL(fileURLWithPath: wav)))
    }

    @Test func aClipsPictureAndSoundApartPlayAsTheClip() async throws {
        let folder = try TemporaryFolder("audio-file")
        defer { folder.remove() }
        let clip = try await SplitClip.make(in: folder)
        let whole = try await Self.played([clip.original], into: folder, name: "whole")
        let split = try await Self.played([clip.video, "--audio-file", clip.sound], into: folder, name: "split")
        #expect(whole.frames.count == 100 && split.frames == whole.frames)
        #expect(whole.sound.count > 600_000 && split.sound == whole.sound)
    }

    @Test func aSoundFileThatDoesNotOpenIsNamed() async throws {
        let folder = try TemporaryFolder("audio-file")
        defer { folder.remove() }
        let missing = folder.path("dub.m4a")
        let result = try await ChildProcess.runTandem(["play", "--headless", "--fast", Repository.asset("video-only.mp4"), "--audio-file", missing],
                                                      within: 60)
        #expect(result.status == 1)
        #expect(result.standardError == "tandem: \(missing): no such file\n")
    }
}

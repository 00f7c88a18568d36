import CSDL2
import FFmpegKit
import Foundation
import PlayerCore
import Testing
import TestSupport
@testable import TandemWindow

/// A renderer that draws nothing: these tests watch the player's subtitle state, not the pixels
/// (SubtitleKitTests check those).
final class NoSubtitleRenderer: SubtitleRenderer {
    func render(_ cues: [SubtitleCue], track: SubtitleRenderTrack, at time: Double, onto frame: Frame) -> Frame? { nil }
}

extension SDLTests {
    /// j/J, v and z/x injected into SDL's queue reach the player through the window's loop, the key
    /// map and the controller, with mpv's messages.
    @WindowActor @Suite struct SubtitleKeyTests {
        /// An mkv of h264-aac.mp4's video with two SRT tracks (the second default), made by ffmpeg.
        static func clip(in folder: URL) async throws -> String {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let srt = folder.appendingPathComponent("a.srt").path
            try "1\n00:00:00,000 --> 00:00:04,000\nHELLO\n\n".write(toFile: srt, atomically: true, encoding: .utf8)
            let out = folder.appendingPathComponent("subs.mkv").path
            let ffmpeg = try await ChildProcess.run(
                "/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin", "-i", TestMedia.path("h264-aac.mp4"),
                                    "-i", srt, "-i", srt, "-map", "0:v", "-map", "1", "-map", "2", "-c:v", "copy", "-c:s", "srt",
                                    "-disposition:s:0", "0", "-disposition:s:1", "default", out])
            guard ffmpeg.status == 0 else { throw TestMedia.Failure(description: "ffmpeg failed making \(out): \(ffmpeg.standardError)") }
            return out
        }

        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }

        @Test func subtitleKeysDriveThePlayer() async throws {
            SDLTests.useHeadlessDrivers()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-subkeys-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = try await Self.clip(in: folder)
            let window = try PlayerWindow(title: "subtitle keys", size: .init(width: 160, height: 120))
            defer { window.close() }
            let sink = WindowVideoSink()
            var options = PlayerOptions(videoSink: sink, audioSink: nil)
            options.subtitles = SubtitleOptions(renderer: NoSubtitleRenderer())
            let player = try await Player.open(clip, options: options)
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            let loop = Task { await window.run(controller: controller) }
            #expect(player.subtitleTrack == 2)  // the default-flagged one

            Self.press(SDLK_j)  // 2 → off
            #expect(await eventually { player.subtitleTrack == nil })
            #expect(controller.toasts.last?.text == "Subtitles: no")
            Self.press(SDLK_j)  // off → 1
            #expect(await eventually { player.subtitleTrack == 1 })
            Self.press(SDLK_j, modifiers: KMOD_LSHIFT)  // J: 1 → off
            #expect(await eventually { player.subtitleTrack == nil })
            Self.press(SDLK_j, modifiers: KMOD_LSHIFT)  // J: off → 2
            #expect(await eventually { player.subtitleTrack == 2 })
            Self.press(SDLK_v)
            #expect(await eventually { !player.subtitlesVisible })
            #expect(controller.toasts.last?.text == "Subtitles hidden")
            Self.press(SDLK_v)
            #expect(await eventually { player.subtitlesVisible })
            Self.press(SDLK_x)
            Self.press(SDLK_x)
            Self.press(SDLK_z)
            Self.press(SDLK_x)
            #expect(await eventually { abs(player.subtitleDelay - 0.2) < 1e-9 })
            #expect(controller.toasts.last?.text == "Sub delay: 200 ms")
            Self.press(SDLK_q)
            await loop.value
            await player.close()
        }

        @Test func cyclingGoesThroughEveryTrackThenOff() {
            #expect(TrackCommands.next(after: nil, ids: [1, 2, 3], forward: true) == 1)
            #expect(TrackCommands.next(after: 3, ids: [1, 2, 3], forward: true) == nil)
            #expect(TrackCommands.next(after: nil, ids: [1, 2, 3], forward: false) == 3)
            #expect(TrackCommands.next(after: 1, ids: [1, 2, 3], forward: false) == nil)
        }
    }
}

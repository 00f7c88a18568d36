import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import SubtitleKit
import TandemWindow

/// What a play session is asked to do: `tandem play`'s options (mpv's names), as plain values.
package struct PlayOptions: Sendable {
    /// Files, folders, URLs of media and page links, played in turn (``PlaySession/run(_:)`` lists them).
    package var files: [String]
    /// Resolves page links (nil: `--no-ytdl`, every URL opened as it is).
    package var resolver: PageLinkResolver?
    /// Events as JSON lines on standard output (`--json`).
    package var json: Bool
    package var headless: Bool
    package var fast: Bool
    package var start: PlayTime?
    package var end: PlayTime?
    package var loopFile: Bool
    package var loopPlaylist: Bool
    package var shuffle: Bool
    package var savePositionOnQuit: Bool
    package var noResumePlayback: Bool
    package var watchLaterDir: String?
    package var volume: Int?
    package var screenshotDir: String?
    package var speed: Double
    package var framemd5: String?
    package var wav: String?
    package var snapshot: String?
    package var ipc: String?
    package var aid: TrackChoice
    package var sid: TrackChoice
    package var alang: String?
    package var slang: String?
    package var subFiles: [String]
    package var subDelay: Double
    /// Sound files played with every item (`--audio-file`, mpv's).
    package var audioFiles: [String]
    /// The sound outputs to try and the audio delay (nil: no sound output, paced without one).
    package var sound: SoundOptions?
    /// `--video-sync`: what places the window's pictures.
    package var videoSync: VideoSync = .audio

    package init(files: [String] = [], resolver: PageLinkResolver? = nil, json: Bool = false, headless: Bool, fast: Bool, start: PlayTime?, end: PlayTime?, loopFile: Bool, loopPlaylist: Bool, shuffle: Bool, savePositionOnQuit: Bool, noResumePlayback: Bool, watchLaterDir: String?, volume: Int?, screenshotDir: String?, speed: Double, framemd5: String?, wav: String?, snapshot: String?, ipc: String?, aid: TrackChoice, sid: TrackChoice, alang: String?, slang: String?, subFiles: [String], subDelay: Double, audioFiles: [String] = [], sound: SoundOptions? = nil) {
        self.files = files
        self.resolver = resolver
        self.json = json
        self.headless = headless
        self.fast = fast
        self.start = start
        self.end = end
        self.loopFile = loopFile
        self.loopPlaylist = loopPlaylist
        self.shuffle = shuffle
        self.savePositionOnQuit = savePositionOnQuit
        self.noResumePlayback = noResumePlayback
        self.watchLaterDir = watchLaterDir
        self.volume = volume
        self.screenshotDir = screenshotDir
        self.speed = speed
        self.framemd5 = framemd5
        self.wav = wav
        self.snapshot = snapshot
        self.ipc = ipc
        self.aid = aid
        self.sid = sid
        self.alang = alang
        self.slang = slang
        self.subFiles = subFiles
        self.subDelay = subDelay
        self.audioFiles = audioFiles
        self.sound = sound
    }
}

extension PlayOptions {
    /// Subtitles as the options ask: given files, then files named after the video found next to it
    /// (mpv's auto-loading); none when no picture is made (the pictures are where they are drawn).
    package func subtitleOptions(for file: String) -> SubtitleOptions? {
        guard framemd5 == nil || snapshot != nil || !(headless || fast) else { return nil }
        let given = subFiles.map { SubtitleOptions.ExternalFile(path: $0) }
        let givenPaths = Set(subFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let found = SubtitleOptions.ExternalFile.discovered(nextTo: file).filter {
            !givenPaths.contains(URL(fileURLWithPath: $0.path).standardizedFileURL.path)
        }
        return SubtitleOptions(renderer: SubtitleCompositor(), choice: sid, languages: Self.languages(slang),
                               externalFiles: given + found, delay: subDelay)
    }

    /// "en, de" → ["en", "de"].
    package static func languages(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// What ``preflight(_:)`` finds: the first video stream and the duration.
    package typealias Probe = (firstVideo: Int?, duration: Double?)

    /// Opens `file` (a path or an http(s)/HLS URL) and closes it again; returns its first video
    /// stream and its duration. Throws the one-line open error. An http(s) server without byte
    /// ranges is played from the start anyway, as mpv does (only seeking needs ranges): that is a warning here.
    package static func preflight(_ file: String, options: [String: String] = [:]) throws(OpenError) -> Probe {
        let input = try InputFile(url: file, options: options)
        do throws(OpenError) {
            try input.requireByteRanges()
        } catch {
            printError("warning: \(error.description): playing from the start, seeking will fail")
        }
        let info = input.info()
        return (info.streams.first { $0.type == .video }?.index, info.durationSeconds)
    }
}


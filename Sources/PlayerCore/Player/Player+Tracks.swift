import FFmpegKit
import Foundation
import Synchronization

/// The player's tracks: which audio and subtitle streams play, chosen at opening as mpv chooses
/// them and changed while playing.
extension Player {
    /// The subtitle tracks (the file's streams, then external files), numbered as mpv numbers them;
    /// empty when the player was opened without ``PlayerOptions/subtitles`` or without video.
    public var subtitleTracks: [MediaTrack] { subtitles?.tracks ?? [] }
    /// The id of the subtitle track shown (``MediaTrack/id``), nil for none.
    public var subtitleTrack: Int? { subtitles?.selected }
    /// Shows subtitle track `id` from the next picture on (nil: none). An unknown id selects none.
    public func selectSubtitleTrack(_ id: Int?) { subtitles?.select(id) }
    /// Whether the chosen subtitles are drawn (mpv's `sub-visibility`).
    public var subtitlesVisible: Bool { subtitles?.visible ?? false }
    public func setSubtitlesVisible(_ visible: Bool) { subtitles?.setVisible(visible) }
    /// Seconds added to the subtitles' times (mpv's `sub-delay`): positive shows them later.
    public var subtitleDelay: Double { subtitles?.delay ?? 0 }
    public func setSubtitleDelay(_ delay: Double) { subtitles?.setDelay(delay) }

    /// The audio tracks of the file and the one played (nil: none).
    public var audioTracks: [MediaTrack] { MediaTrack.tracks(of: .audio, in: info) }
    public var audioTrack: Int? { playedAudioTrack.withLock { $0 } }

    /// Plays audio track `id` (``MediaTrack/id``) from where the clock is, as mpv's `#` does: a seek
    /// to the current position, so the new track is heard in step with the picture (which holds for
    /// that preroll). Returns at once; ``waitUntilReady()`` waits for the switch.
    /// - Throws: ``TrackError`` for an unknown track, a player opened without sound, or a decoder
    ///   that cannot open the track (the current one plays on).
    public func selectAudioTrack(_ id: Int) throws(TrackError) {
        guard let audioTrackSwitch else { throw TrackError(reason: "this player plays no audio (opened with --aid=no or no sound output)") }
        guard let track = audioTracks.first(where: { $0.id == id }), case .stream(let index) = track.source else {
            throw TrackError(reason: "no audio track \(id) (\(audioTracks.count) in \(url))")
        }
        guard id != audioTrack else { return }
        let decoder: Decoder
        do throws(OpenError) {
            decoder = try Decoder(input: input, streamIndex: index, threads: decoderThreads)
        } catch {
            throw TrackError(reason: "audio track \(id): \(error.reason)")
        }
        let now = control.time.now()
        let position = clamp(control.settled(at: now) { $0.clock.position(at: now) })
        playedAudioTrack.withLock { $0 = id }
        // Requested under the state's lock, with the seek: the demuxer takes that seek only after.
        _ = control.beginSeek { state in
            let actions = state.seekRequested(to: position, accurate: true, at: now)
            audioTrackSwitch.request(decoder, serial: state.serial)
            return actions
        }
        queues.forEach { $0.nudge() }
    }

    /// The container stream to play as audio: by ``PlayerOptions/audioChoice`` and languages, as mpv
    /// chooses; FFmpeg's best when there is nothing to choose between.
    static func audioStream(_ options: PlayerOptions, info: MediaInfo, input: MediaInput) -> Int? {
        let tracks = MediaTrack.tracks(of: .audio, in: info)
        // An external sound file is played before the input's own tracks, as mpv prefers it.
        if options.audioChoice == .auto, options.audioLanguages.isEmpty,
           input.files.count > 1 || !tracks.contains(where: \.isDefault) {
            return input.bestStream(.audio)
        }
        guard let track = TrackSelection.choose(options.audioChoice, among: tracks, languages: options.audioLanguages, subtitles: false),
              case .stream(let index) = track.source else { return nil }
        return index
    }

    /// Every subtitle stream of the file with its decoder and packet route, then the external
    /// files. A stream FFmpeg cannot decode is left out with a warning; a given file that cannot
    /// be read fails the open, one found by name is skipped with a warning.
    static func subtitleSources(input: MediaInput, info: MediaInfo, options: SubtitleOptions, start: Double,
                                        warn: (String) -> Void) throws(OpenError) -> (sources: [SubtitleStage.Source], routes: [Demuxer.Route]) {
        var sources: [SubtitleStage.Source] = []
        var routes: [Demuxer.Route] = []
        let embedded = MediaTrack.tracks(of: .subtitle, in: info)
        for track in embedded {
            guard case .stream(let index) = track.source else { continue }
            do {
                let decoder = try SubtitleDecoder(input: input, streamIndex: index)
                let packets = PacketQueue()
                routes.append(.init(streamIndex: index, packets: packets, frames: { _ in }, timeBase: decoder.timeBase.value,
                                    startSeconds: start, sparse: true))
                sources.append(.init(track: track, packets: packets, decoder: decoder, header: decoder.header, timeline: SubtitleTimeline()))
            } catch {
                warn("subtitle track \(track.id): \(error.reason)")
            }
        }
        var id = embedded.count
        for file in options.externalFiles {
            do {
                let loaded = try SubtitleFile(path: file.path)
                id += 1
                let track = MediaTrack(id: id, source: .external(path: file.path), codec: loaded.codec,
                                       language: loaded.language ?? Self.languageSuffix(file.path), title: loaded.title,
                                       autoLoaded: file.autoLoaded)
                sources.append(.init(track: track, packets: nil, decoder: nil, header: loaded.header, timeline: loaded.timeline))
            } catch {
                guard file.autoLoaded else { throw error }
                warn("\(error.description): skipped")
            }
        }
        return (sources, routes)
    }

    /// "en" for `film.en.srt`: the language mpv reads from an external file's name.
    static func languageSuffix(_ path: String) -> String? {
        let parts = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.split(separator: ".")
        guard parts.count >= 2, let last = parts.last, (2...3).contains(last.count), last.allSatisfy(\.isLetter) else { return nil }
        return String(last)
    }
}

import ArgumentParser
import Foundation
import PlayerCore
import TandemApp

/// `--sid`, `--slang` and `--sub-file` of a party member (`host`, `join`): its own choice of subtitles
/// for every item of the party.
struct PartySubtitleOptions: ParsableArguments {
    @Option(help: "Subtitle track (your own choice): its number among the subtitle tracks (from 1; --sub-file ones after the file's own), auto, or no.")
    var sid: TrackChoice = .auto
    @Option(help: "Preferred subtitle languages in order, comma-separated (e.g. en,de).") var slang: String?
    @Option(name: .customLong("sub-file"), help: "A subtitle file to add as a track of every item (repeatable); preferred to the file's own.")
    var subFiles: [String] = []

    func validate() throws {
        for file in subFiles where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("--sub-file \(file): no such readable file")
        }
    }

    /// What the member's players are given.
    var subtitles: PartySubtitles {
        PartySubtitles(choice: sid, languages: PlayOptions.languages(slang), files: subFiles)
    }
}

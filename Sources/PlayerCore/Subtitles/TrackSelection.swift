/// mpv's automatic track choice (`select_default_track` and `compare_track` in its player/loadfile.c):
/// given files first (external subtitles, `--sub-file` before ones found by name), then the earliest
/// preferred language, then forced, then default, then file order. Subtitles are only shown when the
/// best one has a reason to be: a preferred language, a forced or default flag, or being external.
public enum TrackSelection {
    /// The track to play among `tracks` for `choice`; nil: none.
    /// - Parameters:
    ///   - languages: preferred languages in order (`--alang`/`--slang`, e.g. `["jpn", "en"]`).
    ///   - subtitles: apply the subtitle rule (nothing without a reason to show it).
    public static func choose(_ choice: TrackChoice, among tracks: [MediaTrack], languages: [String], subtitles: Bool) -> MediaTrack? {
        switch choice {
        case .none: return nil
        case .id(let id): return tracks.first { $0.id == id }
        case .auto: break
        }
        guard var best = tracks.first else { return nil }
        for track in tracks.dropFirst() where ranksBefore(track, best, languages: languages) { best = track }
        if subtitles, languageRank(best.language, languages) == 0, !best.isForced, !best.isDefault, !best.isExternal {
            return nil
        }
        return best
    }

    /// Whether `a` is a better automatic choice than `b`.
    static func ranksBefore(_ a: MediaTrack, _ b: MediaTrack, languages: [String]) -> Bool {
        if a.isExternal != b.isExternal { return a.isExternal }
        if a.autoLoaded != b.autoLoaded { return !a.autoLoaded }
        let la = languageRank(a.language, languages), lb = languageRank(b.language, languages)
        if la != lb { return la > lb }
        if a.isForced != b.isForced { return a.isForced }
        if a.isDefault != b.isDefault { return a.isDefault }
        return a.id < b.id
    }

    /// mpv's `match_lang`: higher for earlier preferred languages, 0 for none. Two- and three-letter
    /// codes of the same language match ("en" and "eng"), as do regional forms ("en-US").
    static func languageRank(_ language: String?, _ preferred: [String]) -> Int {
        guard let language = language.map(normalized) else { return 0 }
        for (n, wanted) in preferred.enumerated() where normalized(wanted) == language {
            return preferred.count - n
        }
        return 0
    }

    /// Lowercased ISO 639-2 code for the common ISO 639-1 ones; the region dropped.
    static func normalized(_ language: String) -> String {
        let base = language.lowercased().split(separator: "-").first.map(String.init) ?? ""
        return twoToThree[base] ?? base
    }

    /// ISO 639-1 → 639-2 (bibliographic, as Matroska writes them) for common subtitle languages.
    static let twoToThree: [String: String] = [
        "en": "eng", "de": "ger", "fr": "fre", "es": "spa", "it": "ita", "pt": "por", "nl": "dut", "sv": "swe",
        "no": "nor", "da": "dan", "fi": "fin", "pl": "pol", "cs": "cze", "ru": "rus", "uk": "ukr", "el": "gre",
        "tr": "tur", "ar": "ara", "he": "heb", "hi": "hin", "ja": "jpn", "ko": "kor", "zh": "chi", "hu": "hun",
        "ro": "rum", "th": "tha", "vi": "vie", "id": "ind", "fa": "per",
    ]
}

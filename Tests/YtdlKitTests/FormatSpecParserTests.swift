import Testing
import YtdlKit

/// `--ytdl-format` text parsed: the forms supported, and each refusal naming what is wrong.
@Suite struct FormatSpecParserTests {
    typealias Spec = FormatSpec

    static func selector(_ target: Spec.Target, _ filters: [FormatFilter] = [], _ text: String) -> Spec.Selector {
        Spec.Selector(target: target, filters: filters, text: text)
    }

    @Test func theCommonFormsParse() throws {
        #expect(try FormatSpecParser.parse("best").alternatives == [.single(Self.selector(.ranked(.best, .videoAndAudio), [], "best"))])
        #expect(try FormatSpecParser.parse("worst").alternatives == [.single(Self.selector(.ranked(.worst, .videoAndAudio), [], "worst"))])
        #expect(try FormatSpecParser.parse("bestvideo+bestaudio/best").alternatives == [
            .merge(Self.selector(.ranked(.best, .videoOnly), [], "bestvideo"), Self.selector(.ranked(.best, .audioOnly), [], "bestaudio")),
            .single(Self.selector(.ranked(.best, .videoAndAudio), [], "best")),
        ])
        #expect(try FormatSpecParser.parse("best[height<=720]").alternatives == [
            .single(Self.selector(.ranked(.best, .videoAndAudio), [FormatFilter(.number(.height, .lessOrEqual, 720))], "best[height<=720]")),
        ])
        #expect(try FormatSpecParser.parse("22").alternatives == [.single(Self.selector(.formatID("22"), [], "22"))])
        #expect(try FormatSpecParser.parse("hls-1080").alternatives == [.single(Self.selector(.formatID("hls-1080"), [], "hls-1080"))])
    }

    @Test func shortNamesStarsAndExtensions() throws {
        let cases: [(String, Spec.Target)] = [
            ("b", .ranked(.best, .videoAndAudio)), ("w", .ranked(.worst, .videoAndAudio)), ("b*", .ranked(.best, .any)),
            ("bv", .ranked(.best, .videoOnly)), ("bv*", .ranked(.best, .video)), ("bestvideo*", .ranked(.best, .video)),
            ("ba", .ranked(.best, .audioOnly)), ("ba*", .ranked(.best, .audio)), ("wv", .ranked(.worst, .videoOnly)),
            ("worstaudio", .ranked(.worst, .audioOnly)), ("BEST", .ranked(.best, .videoAndAudio)),
            ("mp4", .ext("mp4")), ("m4a", .ext("m4a")), ("webm", .ext("webm")),
        ]
        for (text, target) in cases {
            #expect(try FormatSpecParser.parse(text).alternatives == [.single(Self.selector(target, [], text))], "\(text)")
        }
    }

    @Test func filtersOfEveryKind() throws {
        let spec = try FormatSpecParser.parse("bv*[height>=480][fps!=60][vcodec^=avc1][ext!=webm][tbr<?2000][format_note~=^DASH]+ba[language=en]")
        guard case .merge(let video, let audio) = spec.alternatives.first else { Issue.record("not a merge: \(spec)"); return }
        #expect(video.filters == [
            FormatFilter(.number(.height, .greaterOrEqual, 480)),
            FormatFilter(.number(.fps, .notEqual, 60)),
            FormatFilter(.text(.vcodec, .startsWith, "avc1", negated: false)),
            FormatFilter(.text(.ext, .equal, "webm", negated: true)),
            FormatFilter(.number(.tbr, .less, 2000), passesWhenMissing: true),
            FormatFilter(.text(.formatNote, .matches, "^DASH", negated: false)),
        ])
        #expect(audio.filters == [FormatFilter(.text(.language, .equal, "en", negated: false))])
        #expect(video.text == "bv*[height>=480][fps!=60][vcodec^=avc1][ext!=webm][tbr<?2000][format_note~=^DASH]")
    }

    @Test func filtersAloneMeanTheBest() throws {
        #expect(try FormatSpecParser.parse("[height<=480]").alternatives == [
            .single(Self.selector(.ranked(.best, .videoAndAudio), [FormatFilter(.number(.height, .lessOrEqual, 480))], "[height<=480]")),
        ])
    }

    @Test func spacesAroundTheSyntaxAreAllowed() throws {
        #expect(try FormatSpecParser.parse(" bestvideo + bestaudio / best ") == FormatSpecParser.parse("bestvideo+bestaudio/best"))
    }

    @Test func theDefaultIsYtdlpsOwn() {
        #expect(FormatSpec.standard.description == "bestvideo*+bestaudio/best")
        #expect(FormatSpec.standard.alternatives.count == 2)
    }

    @Test(arguments: [
        ("", "a selector is missing at the end"),
        ("best/", "a selector is missing at the end"),
        ("(bv+ba)/b", "grouping with ( ) is not supported"),
        ("best,worst", "several formats at once (,) are not supported: Tandem plays one"),
        ("bv+ba+ba", "merging more than two formats is not supported"),
        ("bv.2", "bv.2: the n-th best (.N) is not supported"),
        ("all", "all (several formats at once) is not supported"),
        ("best[height<=720", "a [ is not closed"),
        ("best]", "a ] without its ["),
        ("best[height<=tall]", "[height<=tall]: height needs a number, not \"tall\""),
        ("best[height~=7]", "[height~=7]: height compares with <, <=, >, >=, = or !="),
        ("best[ext<mp4]", "[ext<mp4]: ext compares with =, ^=, $=, *= or ~= (! before any negates)"),
        ("best[ext=]", "[ext=]: a value is missing"),
        ("best[format_note~=(]", "[format_note~=(]: not a regular expression"),
        ("best[<=720]", "[<=720]: a filter starts with a field name, e.g. [height<=720]"),
    ])
    func refusalsSayWhatIsWrong(text: String, reason: String) {
        #expect(throws: FormatSpecParser.Failure(text: text, reason: reason)) { try FormatSpecParser.parse(text) }
    }

    @Test func anUnknownFieldListsTheKnownOnes() {
        do {
            _ = try FormatSpecParser.parse("best[colour=red]")
            Issue.record("parsed")
        } catch {
            #expect(error.description.hasPrefix("--ytdl-format \"best[colour=red]\": [colour=red]: no field \"colour\" (fields: width, height,"))
        }
    }
}

import Foundation
import Testing
import TestSupport
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

/// The config file, watch-later entries and the kept volume, as values and files.
@Suite struct RememberingTests {
    @Test func configLinesBecomeOptions() throws {
        let text = "speed=1.5\n# a comment\n\nloop-file\nshuffle=no\n  start = 1:30   # inline\n--slang=en\nsub-file=\"a b.srt\"\n"
        let arguments = try ConfigFile.arguments(text, path: "t.conf", isOption: PlayCommand.optionProblem)
        #expect(arguments == ["--speed=1.5", "--loop-file", "--start=1:30", "--slang=en", "--sub-file=a b.srt"])
    }

    @Test(arguments: [
        ("speed=1\nspeed\n", 2, "speed needs a value (speed=VALUE)"),
        ("what is this\n", 1, "expected name=value, got \"what is this\""),
        ("loop-file=maybe\n", 1, "loop-file takes yes or no, not \"maybe\""),
        ("framemd5=x.txt\n", 1, "framemd5 is for the command line only"),
    ])
    func aBadLineNamesTheFileAndLine(text: String, line: Int, message: String) {
        #expect(throws: ConfigFile.LineError(path: "/c/tandem.conf", line: line, message: message)) {
            try ConfigFile.arguments(text, path: "/c/tandem.conf", isOption: PlayCommand.optionProblem)
        }
    }

    @Test func optionsAreCheckedByTheCommandsOwnParser() {
        #expect(PlayCommand.optionProblem("speed", "1.5") == nil)
        #expect(PlayCommand.optionProblem("start", "-10") == nil)
        #expect(PlayCommand.optionProblem("bogus", "1")?.contains("--bogus") == true)
        #expect(PlayCommand.optionProblem("start", "soon") != nil)
    }

    @Test func watchLaterEntriesAreNamedAsMPVNamesThem() throws {
        let folder = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let later = WatchLater(directory: folder.path)
        // MD5("/tmp/film.mkv") in upper-case hex (python3 -c "import hashlib; print(hashlib.md5(b'/tmp/film.mkv').hexdigest().upper())").
        #expect(later.entryPath(for: "/tmp/film.mkv") == folder.appendingPathComponent("3212219F09060838E733B12857C3E4A0").path)
        #expect(later.position(for: "/tmp/film.mkv") == nil)
        try later.save(83.25, for: "/tmp/film.mkv")
        #expect(later.position(for: "/tmp/film.mkv") == 83.25)
        #expect(later.position(for: "/tmp/other.mkv") == nil)
        let text = try String(contentsOfFile: later.entryPath(for: "/tmp/film.mkv"), encoding: .utf8)
        #expect(text == "# /tmp/film.mkv\nstart=83.250000\n")
        later.forget("/tmp/film.mkv")
        #expect(later.position(for: "/tmp/film.mkv") == nil)
    }

    @Test func theVolumeIsKept() throws {
        let folder = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state/volume").path
        #expect(SavedVolume.load(from: path) == nil)
        SavedVolume(volume: 42, muted: true).save(to: path)
        #expect(SavedVolume.load(from: path) == SavedVolume(volume: 42, muted: true))
        #expect(SavedVolume.defaultPath(environment: ["XDG_STATE_HOME": "/s"]) == "/s/tandem/volume")
        #expect(WatchLater.defaultDirectory(environment: ["XDG_STATE_HOME": "/s"]) == "/s/tandem/watch_later")
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c"]) == "/c/tandem/tandem.conf")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/tandem/tandem.conf")
    }
}

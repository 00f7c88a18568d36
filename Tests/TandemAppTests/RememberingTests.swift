import Foundation
import Testing
import TestSupport
@testable import TandemApp

/// Watch-later entries, the kept volume and the config file's place, as values and files.
@Suite struct RememberingTests {
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

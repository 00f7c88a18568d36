import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import SoundOutput
import Testing
import TestSupport
import TandemWindow
@testable import TandemApp

/// A member's subtitle choice (`--sid`, `--slang` and `--sub-file` of host, join and stories) reaches
/// the players of the party's (or the story list's) window.
@Suite struct PartySubtitlesTests {
    @Test func theWindowsPlayersGetTheMembersSubtitles() async throws {
        let folder = try await SubtitledFilm.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let film = folder.appendingPathComponent("film.mkv").path
        let extra = folder.appendingPathComponent("extra.srt")
        try SubtitledFilm.srt.write(to: extra, atomically: true, encoding: .utf8)

        // As `tandem host film.mkv --sub-file extra.srt --sid 2` builds them: the given file, then film.srt found beside it.
        let choice = PartySubtitles(choice: .id(2), languages: ["en"], files: [extra.path])
        let sinks = StorySinks(urls: [film], sound: SoundOptions(outputs: .none), subtitles: { choice.options(for: [film][$0]) }, warn: { _ in })
        let player = try await Player.open(film, options: sinks.playerOptions(for: 0))
        #expect(player.subtitleTracks.count == 2, "the given file and the same-named one")
        #expect(player.subtitleTrack == 2, "the member's --sid")
        await player.close()

        // Without subtitles asked for (the default of StorySinks): none are decoded.
        let plain = StorySinks(urls: [film], sound: SoundOptions(outputs: .none), warn: { _ in })
        let bare = try await Player.open(film, options: plain.playerOptions(for: 0))
        #expect(bare.subtitleTracks.isEmpty)
        await bare.close()
    }

    /// `tandem join` with a local copy of the party's item: the same-named .srt beside that copy is
    /// a track of the member's player, as `play` finds it (the window's players are made knowing
    /// only the item's index; the copy's path is the member's to tell). The host, whose window
    /// knows its files and finds their subtitles itself, gets each once.
    @Test func aJoinersLocalCopyBringsItsSameNamedSubtitles() async throws {
        let hostFolder = try await SubtitledFilm.folder()
        let guestFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-subjoin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: guestFolder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: hostFolder)
            try? FileManager.default.removeItem(at: guestFolder)
        }
        try FileManager.default.copyItem(at: hostFolder.appendingPathComponent("film.mkv"), to: guestFolder.appendingPathComponent("film.mkv"))
        try SubtitledFilm.srt.write(to: guestFolder.appendingPathComponent("film.srt"), atomically: true, encoding: .utf8)

        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "subs", key: "k", insecure: true)
        let film = hostFolder.appendingPathComponent("film.mkv").path
        let item = MediaItem(title: "film.mkv", identity: try MediaIdentification.identify(file: film))
        // Players as the windows make them: `join`'s knows no files, `host`'s knows its own.
        func member(_ name: String, folder: URL, create: PartyConfig?, files: [String]) -> PartyMember {
            let sinks = StorySinks(urls: files, sound: SoundOptions(outputs: .none), subtitles: { index in
                PartySubtitles().options(for: files.indices.contains(index) ? files[index] : nil)
            }, warn: { _ in })
            return PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: [folder.path],
                                              playerOptions: { sinks.playerOptions(for: $0) }, logger: Logger(label: "test")),
                               notices: { _ in })
        }
        let host = member("Hana", folder: hostFolder, create: PartyConfig(items: [item]), files: [film])
        let guest = member("Gus", folder: guestFolder, create: nil, files: [])
        let hostRun = Task { await host.run() }
        defer { hostRun.cancel() }
        // Polling with failure bounds only (30 s each): the party exists once the host is in it.
        func poll<T>(_ read: () async -> T?) async throws -> T? {
            var value: T?
            _ = await eventually { value = await read(); return value != nil }
            return value
        }
        _ = try await poll { await host.status.me }
        let guestRun = Task { await guest.run() }
        defer { guestRun.cancel() }
        let shown = try #require(try await poll { await guest.currentPlayer }, "the guest never opened the item")
        #expect(shown.subtitleTracks.count == 1, "film.srt beside the guest's copy: \(shown.subtitleTracks)")
        #expect(shown.subtitleTrack == 1)
        let hostPlayer = try #require(try await poll { await host.currentPlayer })
        #expect(hostPlayer.subtitleTracks.count == 1, "the host's film.srt, once: \(hostPlayer.subtitleTracks)")
        await guest.leave()
        await host.leave()
        _ = await guestRun.value
        _ = await hostRun.value
        await guest.shutDown()
        await host.shutDown()
        await server.stop()
    }
}

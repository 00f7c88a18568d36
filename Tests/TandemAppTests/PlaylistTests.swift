import Foundation
import PartyKit
import Testing
@testable import TandemApp

/// ``Playlist``'s orders, loops and skips, and folder expansion.
@Suite struct PlaylistTests {
    /// Feeds `events` after `.start`; the items opened, with -1 for `.keep` and nil for `.finish`.
    static func run(_ playlist: Playlist, _ events: [Playlist.Event]) -> [Int?] {
        var playlist = playlist
        return ([.start] + events).map { event in
            switch playlist.handle(event) {
            case .open(let index): return index
            case .keep: return -1
            case .finish: return nil
            }
        }
    }

    @Test func playsInOrderAndFinishes() {
        #expect(Self.run(Playlist(count: 3), [.ended, .ended, .ended]) == [0, 1, 2, nil])
        #expect(Self.run(Playlist(count: 3), [.opened, .ended, .opened, .ended, .opened, .ended]) == [0, -1, 1, -1, 2, -1, nil])
        #expect(Self.run(Playlist(count: 0), []) == [nil])
    }

    @Test func nextAndPreviousStopAtTheEndsUnlessItLoops() {
        #expect(Self.run(Playlist(count: 2), [.previous, .next, .next, .previous, .previous]) == [0, -1, 1, -1, 0, -1])
        #expect(Self.run(Playlist(count: 2, loopPlaylist: true), [.previous, .next, .next]) == [0, 1, 0, 1])
    }

    @Test func loopFileRepeatsTheItemButNextMovesOn() {
        #expect(Self.run(Playlist(count: 2, loopFile: true), [.ended, .ended, .next, .ended]) == [0, 0, 0, 1, 1])
    }

    @Test func loopPlaylistStartsAgainAfterTheLast() {
        #expect(Self.run(Playlist(count: 2, loopPlaylist: true), [.ended, .ended, .ended]) == [0, 1, 0, 1])
    }

    @Test func aFailedItemIsSkippedInTheDirectionOfTravel() {
        #expect(Self.run(Playlist(count: 3), [.failed, .opened, .ended, .opened, .ended]) == [0, 1, -1, 2, -1, nil])
        // Back from 2 to 1, which fails: on to 0.
        #expect(Self.run(Playlist(count: 3), [.opened, .next, .next, .previous, .failed]) == [0, -1, 1, 2, 1, 0])
        // Back to 0, which fails: forwards again.
        #expect(Self.run(Playlist(count: 3), [.opened, .next, .previous, .failed]) == [0, -1, 1, 0, 1])
        #expect(Self.run(Playlist(count: 2), [.opened, .failed]) == [0, -1, 1])
    }

    @Test func everyItemFailingFinishesEvenWhenLooping() {
        #expect(Self.run(Playlist(count: 3, loopPlaylist: true), [.failed, .failed, .failed]) == [0, 1, 2, nil])
        #expect(Self.run(Playlist(count: 1, loopFile: true), [.failed]) == [0, nil])
    }

    @Test func shuffleIsAPermutationFollowedInOrder() {
        var generator = SplitMix64(seed: 7)  // PartyKit's seeded generator: the same shuffle every run
        let order = Playlist.shuffled(count: 10, using: &generator)
        #expect(order.sorted() == Array(0..<10))
        #expect(order != Array(0..<10))
        let playlist = Playlist(order: order)
        #expect(Self.run(playlist, [.ended, .ended]) == Array(order.prefix(3)))
        #expect(Playlist(count: 50, shuffle: true).order != Array(0..<50))
    }

    /// mpv's `--shuffle --loop-playlist`: each pass plays every item once, in a new order each time.
    @Test func aShuffledLoopingPlaylistIsReshuffledEachLoop() {
        let count = 8, passes = 4
        let playlist = Playlist(count: count, loopPlaylist: true, shuffle: true, seed: 11)
        let opened = Self.run(playlist, Array(repeating: .ended, count: count * passes - 1)).map { $0 ?? -2 }
        let orders = (0..<passes).map { Array(opened[($0 * count)..<(($0 + 1) * count)]) }
        for order in orders { #expect(order.sorted() == Array(0..<count), "a pass plays each item once: \(order)") }
        #expect(Set(orders).count == passes, "every pass in a new order: \(orders)")
        // The same seed, the same shuffles; `>` past the last item reshuffles too.
        #expect(Self.run(Playlist(count: count, loopPlaylist: true, shuffle: true, seed: 11),
                         Array(repeating: .next, count: count * passes - 1)).map { $0 ?? -2 } == opened)
        // Not shuffled: the same order every loop.
        #expect(Self.run(Playlist(count: 3, loopPlaylist: true), Array(repeating: .ended, count: 5)) == [0, 1, 2, 0, 1, 2])
    }

    @Test func naturalOrder() {
        #expect(PlaylistItems.naturalOrder("Ep1.mkv", "ep0.mkv") == false)  // case only breaks ties
        let names = ["ep10.mkv", "ep2.mkv", "Ep1.mkv", "ep1b.mkv", "a.mp4", "ep02.mkv", "ep2.MKV"]
        #expect(names.sorted(by: PlaylistItems.naturalOrder)
                == ["a.mp4", "Ep1.mkv", "ep1b.mkv", "ep02.mkv", "ep2.MKV", "ep2.mkv", "ep10.mkv"])
    }

    @Test func aFolderBecomesItsMediaFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-playlist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub.mkv"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["ep10.mkv", "ep9.mp4", "ep9.srt", ".hidden.mkv", "cover.jpg", "song.FLAC"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let items = try PlaylistItems.expand(["first.mp4", folder.path, "https://example.com/x"])
        #expect(items == ["first.mp4"] + ["ep9.mp4", "ep10.mkv", "song.FLAC"].map { folder.appendingPathComponent($0).path }
                + ["https://example.com/x"])
        let empty = folder.appendingPathComponent("sub.mkv").path
        #expect(throws: PlaylistItems.EmptyFolder.self) { try PlaylistItems.expand([empty]) }
    }
}

import Testing
@testable import SyncplayKit

@Suite struct SyncplayFollowingTests {
    @Test func theFirstStateIsShownOnceAFileIsOpen() {
        var h = CoreHarness.loggedIn(file: false)
        #expect(CoreHarness.shows(h.state(position: 30, paused: false, player: nil)).isEmpty)
        h.now += 0.5
        let opened = h.core.fileOpened(name: "party.mp4", duration: 60, size: 1, now: h.now, player: .init(position: 0))
        let show = CoreHarness.shows(opened).first
        #expect(show?.seek == true)
        #expect(show?.playing == true)
        #expect(abs((show?.at ?? 0) - (h.now + SyncplayClientCore.seekLead)) < 1e-9)
        #expect(abs((show?.position ?? 0) - (30 + 0.5 + SyncplayClientCore.seekLead)) < 1e-9)
    }

    @Test func joiningReportsTheRoomsPositionNotTheUnsoughtPlayers() {
        // The file opened before the first state: the player is at 0, the room paused at 21.
        var h = CoreHarness.loggedIn()
        let actions = h.state(position: 21, paused: true, player: .init(position: 0))
        #expect(CoreHarness.shows(actions) == [SyncplayShow(position: 21, at: h.now, playing: false, seek: true)])
        #expect(CoreHarness.answers(actions).first?.playstate == .init(position: 21, paused: true))
    }

    @Test func anotherUsersSeekAndPauseAreFollowedOursAreNot() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 10, paused: false, player: .init(position: 0))
        h.now += 1
        let seek = h.state(position: 40, paused: false, doSeek: true, setBy: "amy", player: .init(position: 11))
        #expect(CoreHarness.notices(seek) == [.seeked(by: "amy", to: 40)])
        #expect(CoreHarness.shows(seek).first?.seek == true)

        h.now += 1
        let own = h.state(position: 41, paused: false, doSeek: true, setBy: "tandem", player: .init(position: 41))
        #expect(CoreHarness.shows(own).isEmpty)

        h.now += 1
        let pause = h.state(position: 42, paused: true, setBy: "amy", player: .init(position: 42.01))
        #expect(CoreHarness.notices(pause) == [.paused(by: "amy")])
        #expect(CoreHarness.shows(pause) == [SyncplayShow(position: 42, at: h.now, playing: false, seek: false)])
        #expect(h.core.localPaused)
        #expect(CoreHarness.answers(pause).first?.playstate?.paused == true)

        h.now += 1
        let resume = h.state(position: 45, paused: false, setBy: "amy", player: .init(position: 42.01))
        #expect(CoreHarness.notices(resume) == [.resumed(by: "amy")])
        // Three seconds away from where the player stopped: a seek, scheduled ahead.
        #expect(CoreHarness.shows(resume).first?.seek == true)
    }

    @Test func smallErrorsAreNudgedLargeOnesReSoughtNotSlowedDown() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 100, paused: false, player: .init(position: 0))
        // 40 ms ahead of the room: a negative correction within ±0.5 %, never Syncplay's 0.95×.
        var corrections: [Double] = []
        for _ in 0..<3 {
            h.now += 1
            let actions = h.state(position: 100 + (h.now - 1000), paused: false, player: .init(position: 100 + (h.now - 1000) + 0.04))
            corrections += CoreHarness.corrections(actions)
            #expect(CoreHarness.shows(actions).isEmpty)
        }
        #expect(corrections.first.map { $0 < 0 && $0 >= -0.005 } == true)
        #expect(abs((h.core.lastError ?? 0) - 0.04) < 1e-6)

        // Half a second behind on two samples: re-sought (after the first, only nudged).
        h.now += 1
        let first = h.state(position: 100 + (h.now - 1000), paused: false, player: .init(position: 100 + (h.now - 1000) - 0.5))
        #expect(CoreHarness.shows(first).isEmpty)
        h.now += 1
        let second = h.state(position: 100 + (h.now - 1000), paused: false, player: .init(position: 100 + (h.now - 1000) - 0.5))
        h.now += 1
        let third = h.state(position: 100 + (h.now - 1000), paused: false, player: .init(position: 100 + (h.now - 1000) - 0.5))
        #expect(CoreHarness.shows(second + third).count == 1)
        #expect(CoreHarness.shows(second + third).first?.seek == true)
    }

    @Test func aRoomSetByUsIsNotChasedNorIsABusyPlayer() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 100, paused: false, player: .init(position: 0))
        for _ in 0..<4 {
            h.now += 1
            let mine = h.state(position: 100 + (h.now - 1000), paused: false, setBy: "tandem", player: .init(position: 100 + (h.now - 1000) - 2))
            #expect(CoreHarness.shows(mine).isEmpty)
            #expect(CoreHarness.corrections(mine).isEmpty)
            let busy = h.state(position: 100 + (h.now - 1000), paused: false, player: .init(position: 0, busy: true))
            #expect(CoreHarness.shows(busy).isEmpty)
        }
    }

    @Test func aUserSeekIsShownAndSentAsASeek() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 10, paused: false, player: .init(position: 10))
        h.now += 1
        let actions = h.core.userSeek(to: 33, now: h.now)
        let show = CoreHarness.shows(actions).first
        #expect(show?.seek == true)
        #expect(abs((show?.position ?? 0) - (33 + SyncplayClientCore.seekLead)) < 1e-9)
        let sent = CoreHarness.answers(actions).first
        #expect(sent?.playstate == .init(position: 33, paused: false, doSeek: true))
        #expect(sent?.ignoringOnTheFly == .init(client: 1))
    }
}

@Suite struct SyncplayRoomEventsTests {
    @Test func joinsLeavesReadinessChatAndFiles() {
        var h = CoreHarness.loggedIn(file: false)
        let now = h.now
        func receive(_ m: SyncplayMessage) -> [SyncplayClientCore.Action] { h.core.receive(m, now: now, player: nil) }
        #expect(CoreHarness.notices(receive(.set([.user(.init(username: "amy", room: "r1", file: nil, event: .joined))]))) == [.userJoined("amy")])
        #expect(CoreHarness.notices(receive(.set([.ready(username: "amy", isReady: true, manuallyInitiated: true)])))
            == [.ready("amy", true)])
        // The same readiness again says nothing; our own says nothing.
        #expect(receive(.set([.ready(username: "amy", isReady: true, manuallyInitiated: false)])).isEmpty)
        #expect(receive(.set([.ready(username: "tandem", isReady: true, manuallyInitiated: false)])).isEmpty)
        let file = SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1))
        let announced = receive(.set([.user(.init(username: "amy", room: "r1", file: file, event: .changed))]))
        #expect(CoreHarness.notices(announced) == [.userFile("amy", file)])
        #expect(announced.contains(.lookForFile("party.mp4")))
        // Looked for once only.
        #expect(!receive(.list(SyncplayUserList(entries: [.init(room: "r1", username: "amy", file: file)]))).contains(.lookForFile("party.mp4")))
        #expect(CoreHarness.notices(receive(.chat(SyncplayChat(username: "amy", message: "hi")))) == [.chat(from: "amy", text: "hi")])
        #expect(CoreHarness.notices(receive(.set([.user(.init(username: "amy", room: "r1", file: nil, event: .left))]))) == [.userLeft("amy")])
        // Someone in another room leaving is not news here.
        _ = receive(.set([.user(.init(username: "zed", room: "other", file: nil, event: .changed))]))
        #expect(receive(.set([.user(.init(username: "zed", room: "other", file: nil, event: .left))])).isEmpty)
    }

    @Test func aPlaylistNamesTheFileToLookFor() {
        var h = CoreHarness.loggedIn(file: false)
        let actions = h.core.receive(.set([.playlistChange(user: "amy", files: ["a.mkv", "b.mkv"])]), now: h.now, player: nil)
        #expect(actions.contains(.lookForFile("a.mkv")))
        #expect(h.core.receive(.set([.playlistIndex(user: "amy", index: 1)]), now: h.now, player: nil) == [.lookForFile("b.mkv")])
    }

    @Test func chatAndReadinessAreSentOnlyInARoom() {
        var h = CoreHarness()
        #expect(h.core.chat("hi").isEmpty)
        h = CoreHarness.loggedIn()
        #expect(h.core.chat("hi") == [.send(.chat(SyncplayChat(message: "hi")))])
        #expect(h.core.setReady(false) == [.send(.set([.ready(username: nil, isReady: false, manuallyInitiated: true)]))])
    }
}

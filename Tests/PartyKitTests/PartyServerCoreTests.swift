import Testing
@testable import PartyKit

@Suite struct PartyServerCoreTests {
    /// The default lead of a play or pause (no round trips reported: 100 ms assumed + margin).
    let commandLead = 0.1 + PartyServerCore.commandMargin
    /// The default lead of a seek or item change.
    let seekLead = 0.1 + PartyServerCore.seekPrerollMargin

    private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        a.map { abs($0 - b) <= tolerance } ?? false
    }

    // MARK: Creating and joining

    @Test func hostCreatesThePartyAndGetsAWelcome() throws {
        let h = ServerHarness()
        let config = PartyConfig(items: ["movie.mp4", "extra.mkv"], control: .host)
        h.connect(1, at: 100)
        let out = h.send(1, h.hello(name: "Alice", create: config), at: 100)
        let welcome = try #require(out.welcome(to: 1))
        #expect(welcome.version == PartyProtocol.version)
        #expect(welcome.party == h.party)
        #expect(welcome.you == ParticipantInfo(id: "p1", name: "Alice", role: .host, joinedAt: 100))
        #expect(!welcome.token.isEmpty)
        #expect(welcome.config == config)
        #expect(welcome.participants == [welcome.you])
        #expect(welcome.timeline == Timeline(epoch: 1, item: 0, position: 0, partyTime: 100, rate: 1, playing: false,
                                             jump: true, reason: "Alice created the party"))
        #expect(welcome.chat.isEmpty)
        #expect(welcome.serverTime == 100)
        #expect(out.closed.isEmpty)
        #expect(h.core.partyCount == 1)
        #expect(h.core.timeline(of: h.party) == welcome.timeline)
    }

    @Test func joinerGetsTheWholePartyAndOthersAreTold() throws {
        let h = ServerHarness()
        h.join(1, name: "Alice", create: PartyConfig(items: ["movie.mp4"]), at: 0)
        h.send(1, .chat(ChatText(text: "welcome all")), at: 0.5)
        h.connect(2, at: 1)
        let out = h.send(2, h.hello(name: "Bob"), at: 1)
        let welcome = try #require(out.welcome(to: 2))
        let bob = ParticipantInfo(id: "p2", name: "Bob", role: .participant, joinedAt: 1)
        #expect(welcome.you == bob)
        #expect(welcome.participants.map(\.name) == ["Alice", "Bob"])
        #expect(welcome.participants[0].role == .host)
        #expect(welcome.timeline.epoch == 1)
        #expect(welcome.chat == [ChatMessage(from: "Alice", text: "welcome all", time: 0.5)])
        #expect(welcome.config.items == ["movie.mp4"])
        // The others hear of the newcomer; the newcomer is not told about itself.
        #expect(out.messages(to: 1) == [.joined(bob)])
        #expect(out.messages(to: 2).count == 1)
        #expect(h.core.participants(of: h.party).map(\.id) == ["p1", "p2"])

        let carol = try #require(h.join(3, name: "Carol", at: 2))
        #expect(carol.participants.map(\.name) == ["Alice", "Bob", "Carol"])
        #expect(Set([welcome.token, carol.token]).count == 2)
    }

    @Test func namesAreCutAndEmptyNamesGetTheSeatID() throws {
        let h = ServerHarness()
        h.join(1, name: "", create: PartyConfig(items: ["m"]), at: 0)
        let long = String(repeating: "n", count: 200)
        let welcome = try #require(h.join(2, name: long, at: 1))
        #expect(welcome.participants[0].name == "p1")
        #expect(welcome.you.name.count == PartyProtocol.maxNameLength)
    }

    @Test func severalPartiesLiveSideBySide() throws {
        let h = ServerHarness()
        h.join(1, name: "Alice", create: PartyConfig(items: ["a"]), at: 0)
        h.connect(2, at: 0)
        let other = try #require(h.send(2, .hello(Hello(party: "calm-seal-17", key: "k2", name: "Dan",
                                                          create: PartyConfig(items: ["b"]))), at: 0).welcome(to: 2))
        #expect(other.you.role == .host)
        #expect(other.party == "calm-seal-17")
        #expect(h.core.partyCount == 2)
        let out = h.send(1, .command(Command(id: 1, action: .play)), at: 1)
        #expect(out.messages(to: 2).isEmpty)
        #expect(h.core.timeline(of: "calm-seal-17")?.epoch == 1)
        #expect(h.core.timeline(of: h.party)?.epoch == 2)
    }

    // MARK: Refused hellos

    @Test func wrongKeyIsRefusedAndClosed() {
        let h = ServerHarness()
        h.standardParty()
        h.connect(3, at: 2)
        let out = h.send(3, h.hello(name: "Eve", key: "guess"), at: 2)
        #expect(out.errors(to: 3).map(\.code) == [.wrongKey])
        #expect(out.closed == [3])
        #expect(out.messages(to: 1).isEmpty && out.messages(to: 2).isEmpty)
        #expect(h.core.participants(of: h.party).count == 2)
        // The connection is gone: whatever it says next is ignored.
        #expect(h.send(3, h.hello(name: "Eve"), at: 3).isEmpty)
    }

    @Test func unknownPartyIsRefused() {
        let h = ServerHarness()
        h.standardParty()
        h.connect(3, at: 2)
        let out = h.send(3, h.hello(name: "Eve", party: "no-such-party"), at: 2)
        #expect(out.errors(to: 3).map(\.code) == [.unknownParty])
        #expect(out.closed == [3])
        #expect(h.core.partyCount == 1)
    }

    @Test func versionMismatchIsRefused() throws {
        let h = ServerHarness()
        h.standardParty()
        h.connect(3, at: 2)
        let out = h.send(3, h.hello(name: "Old", version: PartyProtocol.version + 1), at: 2)
        let error = try #require(out.errors(to: 3).first)
        #expect(error.code == .versionMismatch)
        #expect(error.message.contains("\(PartyProtocol.version + 1)"))
        #expect(out.closed == [3])
        #expect(h.core.participants(of: h.party).count == 2)
        // Even a would-be host of a new party.
        h.connect(4, at: 2)
        let create = h.send(4, h.hello(name: "Old", create: PartyConfig(items: ["m"]), party: "new", version: 0), at: 2)
        #expect(create.errors(to: 4).map(\.code) == [.versionMismatch])
        #expect(h.core.partyCount == 1)
        // A version-1 host as it was written (items as file names) gets the version error too.
        h.connect(5, at: 2)
        let v1 = h.sendText(5, #"{"type":"hello","version":1,"party":"old","key":"k","name":"Old","create":{"items":["a.mp4"],"control":"host","handoff":false,"graceSeconds":30,"stallWaitSeconds":3}}"#, at: 2)
        #expect(v1.errors(to: 5).map(\.code) == [.versionMismatch])
        #expect(v1.errors(to: 5).first?.message.contains("protocol 9, the client 1") == true)
        // A version-2 host (base64 relay chunks) as it was written: the same.
        h.connect(6, at: 2)
        let v2 = h.sendText(6, #"{"type":"hello","version":2,"party":"old2","key":"k","name":"Old","create":{"items":[{"title":"a.mp4","identity":{"duration":60,"streams":["video h264 640x360"],"bytes":519820,"sampleSHA256":"00"}}],"control":"host","handoff":false,"graceSeconds":30,"stallWaitSeconds":3}}"#, at: 2)
        #expect(v2.errors(to: 6).map(\.code) == [.versionMismatch])
        #expect(v2.errors(to: 6).first?.message == "version mismatch: this server speaks protocol 9, the client 2")
        #expect(v2.closed == [6])
        #expect(h.core.partyCount == 1)
        // A version-3 member (no cluster redirects) as it was written: the same clear error.
        h.connect(7, at: 2)
        let v3 = h.sendText(7, #"{"type":"hello","version":3,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v3.errors(to: 7).first?.message == "version mismatch: this server speaks protocol 9, the client 3")
        // A version-4 member (no `nodes` updates) as it was written: the same clear error.
        h.connect(8, at: 2)
        let v4 = h.sendText(8, #"{"type":"hello","version":4,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v4.errors(to: 8).first?.message == "version mismatch: this server speaks protocol 9, the client 4")
        // A version-5 member (no sound output in its status) as it was written: the same clear error.
        h.connect(9, at: 2)
        let v5 = h.sendText(9, #"{"type":"hello","version":5,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v5.errors(to: 9).first?.message == "version mismatch: this server speaks protocol 9, the client 5")
        // A version-6 member (no live items: it would count a live stream from its own entry) as it was written.
        h.connect(10, at: 2)
        let v6 = h.sendText(10, #"{"type":"hello","version":6,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v6.errors(to: 10).first?.message == "version mismatch: this server speaks protocol 9, the client 6")
        #expect(v6.closed == [10])
        // A version-7 member (no hold behind a live edge) or host (its relay ignores requests for
        // converted pieces) as it was written.
        h.connect(11, at: 2)
        let v7 = h.sendText(11, #"{"type":"hello","version":7,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v7.errors(to: 11).first?.message == "version mismatch: this server speaks protocol 9, the client 7")
        #expect(v7.closed == [11])
        // A version-8 member (it would play an item's separate sound stream not at all).
        h.connect(12, at: 2)
        let v8 = h.sendText(12, #"{"type":"hello","version":8,"party":"old","key":"k","name":"Old"}"#, at: 2)
        #expect(v8.errors(to: 12).first?.message == "version mismatch: this server speaks protocol 9, the client 8")
        #expect(v8.closed == [12])
    }

    @Test func secondHostIsRefused() {
        let h = ServerHarness()
        h.standardParty()
        h.connect(3, at: 2)
        let out = h.send(3, h.hello(name: "Mallory", create: PartyConfig(items: ["other.mp4"], control: .everyone)), at: 2)
        #expect(out.errors(to: 3).map(\.code) == [.partyExists])
        #expect(out.closed == [3])
        #expect(h.core.participants(of: h.party).count == 2)
        #expect(h.core.timeline(of: h.party)?.epoch == 1)
        // The party keeps its own configuration: Bob still may not pause.
        let refused = h.send(2, .command(Command(id: 1, action: .pause)), at: 3)
        guard case .refused = refused.messages(to: 2).first else {
            Issue.record("expected refused, got \(refused)")
            return
        }
    }

    @Test func partyWithoutItemsIsRefused() {
        let h = ServerHarness()
        h.connect(1, at: 0)
        let out = h.send(1, h.hello(name: "Alice", create: PartyConfig(items: [])), at: 0)
        #expect(out.errors(to: 1).map(\.code) == [.badMessage])
        #expect(out.closed == [1])
        #expect(h.core.partyCount == 0)
    }

    // MARK: Misbehaving connections

    @Test func messageBeforeHelloIsDropped() throws {
        let h = ServerHarness()
        h.standardParty()
        h.connect(3, at: 2)
        let out = h.send(3, .chat(ChatText(text: "let me in")), at: 2)
        let error = try #require(out.errors(to: 3).first)
        #expect(error.code == .notHello)
        #expect(error.message.contains("chat"))
        #expect(out.closed == [3])
        #expect(out.messages(to: 1).isEmpty && out.messages(to: 2).isEmpty)
        #expect(h.send(3, h.hello(name: "late"), at: 3).isEmpty)
    }

    @Test func garbageIsDroppedAndOthersGoOn() {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let out = h.sendText(2, "}{ not json", at: 5)
        #expect(out.errors(to: 2).map(\.code) == [.badMessage])
        #expect(out.closed == [2])
        #expect(out.messages(to: 1).isEmpty && out.messages(to: 3).isEmpty)
        // Bob's seat is kept for a reconnect, and the party goes on for the others.
        #expect(h.core.participants(of: h.party).count == 3)
        let chat = h.send(3, .chat(ChatText(text: "still here")), at: 6)
        #expect(chat.allSent.map(\.0).sorted() == [1, 3])
        let play = h.send(1, .command(Command(id: 1, action: .play)), at: 6)
        #expect(play.timelines.count == 1)
        #expect(h.sendText(2, #"{"type":"bye"}"#, at: 7).isEmpty)
    }

    @Test(arguments: [#"{"type":"chat"}"#, #"{"type":"dance"}"#, #"{"text":"x"}"#, "[]", ""])
    func undecodableMessagesAreBadMessages(_ text: String) {
        let h = ServerHarness()
        h.standardParty()
        let out = h.sendText(2, text, at: 5)
        #expect(out.errors(to: 2).map(\.code) == [.badMessage])
        #expect(out.closed == [2])
    }

    @Test func oversizedMessageIsDroppedAsTooBig() {
        let h = ServerHarness()
        h.standardParty()
        let huge = PartyProtocol.encode(.chat(ChatText(text: String(repeating: "z", count: PartyProtocol.maxMessageBytes))))
        let out = h.sendText(2, huge, at: 5)
        #expect(out.errors(to: 2).map(\.code) == [.tooBig])
        #expect(out.closed == [2])
        #expect(out.messages(to: 1).isEmpty)
        // Before hello as well.
        h.connect(9, at: 5)
        #expect(h.sendText(9, huge, at: 5).errors(to: 9).map(\.code) == [.tooBig])
    }

    @Test func floodIsDropped() {
        let h = ServerHarness()
        h.standardParty()
        for i in 0..<PartyServerCore.floodLimit {
            let out = h.send(2, .timePing(TimePing(id: i, t0: 0)), at: 10 + Double(i) * 0.001)
            #expect(out.messages(to: 2).count == 1, "ping \(i)")
            #expect(out.closed.isEmpty)
        }
        let out = h.send(2, .timePing(TimePing(id: 999, t0: 0)), at: 10.5)
        #expect(out.errors(to: 2).map(\.code) == [.flood])
        #expect(out.closed == [2])
        // Alice is not affected.
        #expect(h.send(1, .timePing(TimePing(id: 1, t0: 0)), at: 10.6).messages(to: 1).count == 1)
    }

    /// A transport that answers some messages itself (time pings, on the event loop) gives its count
    /// of the second: the limit compares that, not the few messages the core was given.
    @Test func theTransportsCountOfTheSecondIsWhatTheLimitCompares() {
        let h = ServerHarness()
        h.standardParty()
        let status = PartyProtocol.encode(.status(Status(epoch: 1, state: .ready)))
        var out = h.core.received(2, text: status, messagesThisSecond: PartyServerCore.floodLimit, now: 10)
        #expect(out.closed.isEmpty)
        out = h.core.received(2, text: status, messagesThisSecond: PartyServerCore.floodLimit + 1, now: 10.01)
        #expect(out.errors(to: 2).map(\.code) == [.flood])
        #expect(out.closed == [2])
    }

    @Test func steadyTrafficBelowTheLimitIsNoFlood() {
        let h = ServerHarness()
        h.standardParty()
        // 150 a second for five seconds.
        for i in 0..<750 {
            let out = h.send(2, .timePing(TimePing(id: i, t0: 0)), at: 10 + Double(i) / 150)
            #expect(out.closed.isEmpty, "message \(i)")
        }
    }

    @Test func helloTimeoutDropsSilentConnections() {
        let h = ServerHarness()
        h.standardParty()
        h.connect(7, at: 5)
        #expect(h.tick(at: 10).isEmpty)
        #expect(h.tick(at: 5 + PartyServerCore.helloTimeout).isEmpty)
        let out = h.tick(at: 5 + PartyServerCore.helloTimeout + 0.01)
        #expect(out.errors(to: 7).map(\.code) == [.notHello])
        #expect(out.closed == [7])
        // Joined connections are never timed out, and the dropped one is not dropped twice.
        #expect(h.tick(at: 1000).isEmpty)
    }

    @Test func nonClientMessagesAndSecondHelloAreDropped() {
        let h = ServerHarness()
        h.standardParty()
        let out = h.send(2, .timeline(Timeline(epoch: 99, playing: true)), at: 5)
        #expect(out.errors(to: 2).map(\.code) == [.badMessage])
        #expect(out.errors(to: 2).first?.message.contains("timeline") == true)
        #expect(out.closed == [2])
        #expect(out.messages(to: 1).isEmpty)
        #expect(h.core.timeline(of: h.party)?.epoch == 1)

        let again = h.send(1, h.hello(name: "Alice"), at: 6)
        #expect(again.errors(to: 1).map(\.code) == [.badMessage])
        #expect(again.errors(to: 1).first?.message == "second hello")
    }

    // MARK: Control

    @Test func hostPolicyRefusesParticipantsWithAReason() throws {
        let h = ServerHarness()
        h.standardParty()
        for (i, action) in [Command.Action.play, .pause, .seek, .rate, .item].enumerated() {
            let out = h.send(2, .command(Command(id: 10 + i, action: action, value: 1)), at: 5)
            #expect(out.messages(to: 2) == [.refused(Refused(id: 10 + i,
                reason: "only the host can \(action.rawValue) in this party (control: host)"))])
            #expect(out.messages(to: 1).isEmpty)
        }
        #expect(h.core.timeline(of: h.party)?.epoch == 1)
    }

    @Test func hostPlayAndPausePublishNewEpochsAhead() throws {
        let h = ServerHarness()
        h.standardParty()
        let playOut = h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let play = try #require(playOut.timelines.first)
        #expect(playOut.recipients(of: .timeline(play)) == [1, 2])
        #expect(play.epoch == 2)
        #expect(play.playing)
        #expect(!play.jump)
        #expect(play.position == 0)
        #expect(near(play.partyTime, 10 + commandLead))
        #expect(play.reason == "Alice: play")

        let pauseOut = h.send(1, .command(Command(id: 2, action: .pause)), at: 20)
        let pause = try #require(pauseOut.timelines.first)
        #expect(pauseOut.recipients(of: .timeline(pause)) == [1, 2])
        #expect(pause.epoch == 3)
        #expect(!pause.playing)
        #expect(!pause.jump)
        #expect(pause.partyTime > 20)
        #expect(near(pause.partyTime, 20 + commandLead))
        // Continuous: where the playing timeline is at the pause instant.
        #expect(near(pause.position, 10))
        #expect(pause.reason == "Alice: pause")
        #expect(h.core.timeline(of: h.party) == pause)
    }

    @Test func everyonePolicyLetsParticipantsControl() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], control: .everyone))
        let out = h.send(2, .command(Command(id: 4, action: .play)), at: 3)
        let t = try #require(out.timelines.first)
        #expect(t.playing)
        #expect(t.reason == "Bob: play")
        #expect(out.recipients(of: .timeline(t)) == [1, 2])
    }

    @Test func seekJumpsWithALongerLead() throws {
        let h = ServerHarness()
        h.standardParty()
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let t = try #require(h.send(1, .command(Command(id: 2, action: .seek, value: 42)), at: 20).timelines.first)
        #expect(t.epoch == 3)
        #expect(t.jump)
        #expect(t.position == 42)
        #expect(t.playing)
        #expect(near(t.partyTime, 20 + seekLead))
        #expect(t.partyTime - 20 > commandLead)
    }

    @Test(arguments: [nil, -1, -0.001] as [Double?])
    func invalidSeekIsRefused(_ value: Double?) {
        let h = ServerHarness()
        h.standardParty()
        let out = h.send(1, .command(Command(id: 3, action: .seek, value: value)), at: 5)
        #expect(out.messages(to: 1) == [.refused(Refused(id: 3, reason: "seek needs a position within 0…1000000 s"))])
        #expect(out.messages(to: 2).isEmpty)
        #expect(h.core.timeline(of: h.party)?.epoch == 1)
    }

    @Test func rateIsClampedAndContinuous() throws {
        let h = ServerHarness()
        h.standardParty()
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let fast = try #require(h.send(1, .command(Command(id: 2, action: .rate, value: 10)), at: 12).timelines.first)
        #expect(fast.rate == 4)
        #expect(fast.playing)
        #expect(!fast.jump)
        // A rate change is scheduled with the long (seek) lead, so players can cut their audio on it.
        #expect(near(fast.partyTime, 12 + seekLead))
        #expect(near(fast.position, fast.partyTime - (10 + commandLead)))
        let slow = try #require(h.send(1, .command(Command(id: 3, action: .rate, value: 0.01)), at: 13).timelines.first)
        #expect(slow.rate == 0.25)
        #expect(near(slow.position, fast.position + 4 * (slow.partyTime - fast.partyTime)))
        let normal = try #require(h.send(1, .command(Command(id: 4, action: .rate, value: 1.5)), at: 14).timelines.first)
        #expect(normal.rate == 1.5)
        #expect(near(normal.position, slow.position + 0.25 * (normal.partyTime - slow.partyTime)))
        let none = h.send(1, .command(Command(id: 5, action: .rate)), at: 15)
        #expect(none.messages(to: 1) == [.refused(Refused(id: 5, reason: "rate needs a value"))])
        #expect(h.core.timeline(of: h.party)?.rate == 1.5)
    }

    /// A member on an output that holds 300 ms (a TV) and renders 120 ms beyond it: every command
    /// reaches it before that sound is taken, a rate change before it is rendered; `/who` shows it.
    @Test func commandsAreLedByTheSlowestSoundOutput() throws {
        let h = ServerHarness()
        h.standardParty()
        let tv = OutputReport(driver: "pulse", device: "hdmi", delayMs: 300, audioDelayMs: nil, renderedMs: 120)
        var status = Status(epoch: 1, state: .ready, rttMs: 20)
        status.output = tv
        h.send(2, .status(status), at: 9)
        let play = try #require(h.send(1, .command(Command(id: 1, action: .play)), at: 10).timelines.first)
        #expect(near(play.partyTime, 10 + 0.02 + 0.3 + PartyServerCore.commandMargin))
        let rate = try #require(h.send(1, .command(Command(id: 2, action: .rate, value: 1.5)), at: 12).timelines.first)
        #expect(near(rate.partyTime, 12 + 0.02 + 0.42 + PartyServerCore.commandMargin))
        let seek = try #require(h.send(1, .command(Command(id: 3, action: .seek, value: 5)), at: 14).timelines.first)
        #expect(near(seek.partyTime, 14 + 0.02 + 0.3 + PartyServerCore.seekPrerollMargin))
        // Its output is in everyone's list; an absurd report is bounded, not obeyed.
        #expect(h.core.participants(of: h.party).first { $0.id == "p2" }?.presence?.output == tv)
        status.output = OutputReport(driver: "pulse", device: nil, delayMs: 1e9, audioDelayMs: nil, renderedMs: 1e9)
        h.send(2, .status(status), at: 15)
        let bounded = try #require(h.send(1, .command(Command(id: 4, action: .pause)), at: 16).timelines.first)
        #expect(bounded.partyTime <= 16 + PartyServerCore.maxLead)
    }

    @Test func itemChangeJumpsToTheStart() throws {
        let h = ServerHarness()
        h.standardParty()
        h.send(1, .command(Command(id: 1, action: .seek, value: 30)), at: 5)
        let t = try #require(h.send(1, .command(Command(id: 2, action: .item, value: 1)), at: 10).timelines.first)
        #expect(t.item == 1)
        #expect(t.position == 0)
        #expect(t.jump)
        #expect(near(t.partyTime, 10 + seekLead))
    }

    @Test(arguments: [2, -1, 0.5, nil] as [Double?])
    func itemOutOfRangeIsRefused(_ value: Double?) {
        let h = ServerHarness()
        h.standardParty()
        let out = h.send(1, .command(Command(id: 6, action: .item, value: value)), at: 5)
        #expect(out.messages(to: 1) == [.refused(Refused(id: 6, reason: "no such item"))])
        #expect(out.messages(to: 2).isEmpty)
        #expect(h.core.timeline(of: h.party)?.item == 0)
        #expect(h.core.timeline(of: h.party)?.epoch == 1)
    }

    @Test func reportedRoundTripsLengthenTheLead() throws {
        let h = ServerHarness()
        h.standardParty()
        #expect(h.send(2, .status(Status(epoch: 1, state: .ready, rttMs: 500)), at: 5).timelines.isEmpty, "a presence update, no new timeline")
        let play = try #require(h.send(1, .command(Command(id: 1, action: .play)), at: 10).timelines.first)
        #expect(near(play.partyTime, 10 + 0.5 + PartyServerCore.commandMargin))
        let seek = try #require(h.send(1, .command(Command(id: 2, action: .seek, value: 5)), at: 11).timelines.first)
        #expect(near(seek.partyTime, 11 + 0.5 + PartyServerCore.seekPrerollMargin))
        // Capped, however slow the link claims to be; nonsense round trips are ignored.
        h.send(2, .status(Status(epoch: 1, state: .ready, rttMs: 60_000)), at: 12)
        let capped = try #require(h.send(1, .command(Command(id: 3, action: .pause)), at: 13).timelines.first)
        #expect(near(capped.partyTime, 13 + PartyServerCore.maxLead))
        h.send(2, .status(Status(epoch: 1, state: .ready, rttMs: 1)), at: 14)
        h.send(1, .status(Status(epoch: 1, state: .ready, rttMs: -5)), at: 14)
        let quick = try #require(h.send(1, .command(Command(id: 4, action: .play)), at: 15).timelines.first)
        #expect(near(quick.partyTime, 15 + PartyServerCore.minLead))
    }

    /// A pause right after a seek (the seek's instant still ahead) must not land before the seek:
    /// the group should pause at the seek target, never at a position before it or below zero.
    @Test func commandRightAfterASeekDoesNotLandBeforeIt() throws {
        let h = ServerHarness()
        h.standardParty()
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let seek = try #require(h.send(1, .command(Command(id: 2, action: .seek, value: 0)), at: 20).timelines.first)
        let pause = try #require(h.send(1, .command(Command(id: 3, action: .pause)), at: 20.01).timelines.first)
        #expect(pause.partyTime >= seek.partyTime)
        #expect(pause.position >= 0)
        #expect(near(pause.position, 0))
    }

    // MARK: Chat and participants

    @Test func chatIsBroadcastAndCut() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let out = h.send(2, .chat(ChatText(text: "hello")), at: 3.5)
        let line = ChatMessage(from: "Bob", text: "hello", time: 3.5)
        #expect(out.recipients(of: .chatMessage(line)) == [1, 2, 3])
        #expect(out.allSent.count == 3)

        let long = h.send(1, .chat(ChatText(text: String(repeating: "w", count: 5000))), at: 4)
        guard case .chatMessage(let cut) = long.messages(to: 3).first else {
            Issue.record("expected a chat line")
            return
        }
        #expect(cut.text.count == PartyProtocol.maxChatLength)
        #expect(cut.from == "Alice")
    }

    @Test func chatHistoryIsCappedAndReplayedToNewcomers() throws {
        let h = ServerHarness()
        h.standardParty()
        for i in 0..<60 { h.send(i % 2 == 0 ? 1 : 2, .chat(ChatText(text: "m\(i)")), at: 2 + Double(i) * 0.01) }
        let welcome = try #require(h.join(3, name: "Carol", at: 5))
        #expect(welcome.chat.count == PartyServerCore.chatHistory)
        #expect(welcome.chat.map(\.text) == (10..<60).map { "m\($0)" })
        #expect(welcome.chat.first?.from == "Alice")
        #expect(welcome.chat.last?.from == "Bob")
    }

    @Test func listParticipantsAnswersOnlyTheAsker() {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let out = h.send(2, .listParticipants, at: 5)
        #expect(out.allSent.count == 1)
        guard case .participants(let list) = out.messages(to: 2).first else {
            Issue.record("expected a participant list")
            return
        }
        #expect(list.participants.map(\.name) == ["Alice", "Bob", "Carol"])
        #expect(list.participants.map(\.role) == [.host, .participant, .participant])
    }

    @Test func timePingIsAnsweredWithTheServerClock() {
        let h = ServerHarness()
        h.standardParty()
        let out = h.send(2, .timePing(TimePing(id: 7, t0: 123.5)), at: 4.25)
        #expect(out == [.send(connection: 2, .timePong(TimePong(id: 7, t0: 123.5, t1: 4.25, t2: 4.25)))])
    }

    /// t1 is when the socket read the ping, t2 when the answer goes out: a server busy for 40 ms
    /// between the two must not make that wait look like network delay.
    @Test func timePongStampsReceiveAndSendApart() {
        let h = ServerHarness()
        h.standardParty()
        let out = h.core.received(2, text: PartyProtocol.encode(.timePing(TimePing(id: 8, t0: 1))), receivedAt: 4.21, now: 4.25)
        #expect(out == [.send(connection: 2, .timePong(TimePong(id: 8, t0: 1, t1: 4.21, t2: 4.25)))])
    }

    // MARK: Leaving

    @Test func byeTellsTheOthers() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let bob = try #require(h.core.participants(of: h.party).first { $0.name == "Bob" })
        let out = h.send(2, .bye, at: 5)
        let left = PartyMessage.left(Left(participant: bob, reason: "left the party"))
        #expect(out.recipients(of: left) == [1, 3])
        #expect(out.messages(to: 2).isEmpty)
        #expect(out.closed == [2])
        #expect(h.core.participants(of: h.party).map(\.name) == ["Alice", "Carol"])
        #expect(h.core.partyCount == 1)
        #expect(h.disconnect(2, at: 5.1).isEmpty)
        #expect(h.tick(at: 100).isEmpty)
    }

    @Test func hostByeEndsTheParty() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let out = h.send(1, .bye, at: 5)
        let ended = PartyMessage.partyEnded(PartyEnded(reason: "the host Alice left the party"))
        #expect(out.recipients(of: ended) == [2, 3])
        #expect(Set(out.closed) == [1, 2, 3])
        #expect(h.core.partyCount == 0)
        #expect(h.core.participants(of: h.party).isEmpty)
        // The edge forgets what it kept for the party (its media credential, relayed items).
        #expect(out.contains(.partyClosed(h.party)))
        // Late reconnects find no party.
        h.connect(4, at: 6)
        #expect(h.send(4, h.hello(name: "Bob"), at: 6).errors(to: 4).map(\.code) == [.unknownParty])
    }

    @Test func hostByeHandsOffToTheLongestPresent() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], control: .host, handoff: true), carol: true)
        let out = h.send(1, .bye, at: 5)
        let bob = ParticipantInfo(id: "p2", name: "Bob", role: .host, joinedAt: 1)
        #expect(out.recipients(of: .hostChanged(bob)) == [2, 3])
        #expect(out.messages(to: 2).contains { if case .left = $0 { true } else { false } })
        #expect(out.closed == [1])
        #expect(!out.contains(.partyClosed(h.party)), "handed off: the party goes on")
        #expect(h.core.partyCount == 1)
        #expect(h.core.participants(of: h.party) == [bob, ParticipantInfo(id: "p3", name: "Carol", role: .participant, joinedAt: 2)])
        // The new host controls; the others still may not.
        #expect(h.send(2, .command(Command(id: 1, action: .play)), at: 6).timelines.count == 1)
        guard case .refused = h.send(3, .command(Command(id: 1, action: .pause)), at: 6).messages(to: 3).first else {
            Issue.record("Carol should be refused")
            return
        }
    }

    @Test func handoffSkipsDisconnectedSeats() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], handoff: true), carol: true)
        h.disconnect(2, at: 4)
        let out = h.send(1, .bye, at: 5)
        let hostChanged = out.allSent.compactMap { if case .hostChanged(let p) = $0.1 { p } else { nil } }
        #expect(hostChanged.map(\.name) == ["Carol"])
        #expect(hostChanged.first?.role == .host)
    }

    @Test func lastHostLeavingWithHandoffButNobodyElseEndsTheParty() {
        let h = ServerHarness()
        h.join(1, name: "Alice", create: PartyConfig(items: ["m"], handoff: true), at: 0)
        h.send(1, .bye, at: 1)
        #expect(h.core.partyCount == 0)
    }

    // MARK: Reconnecting

    @Test func disconnectKeepsTheSeatAndResumeTakesItBack() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let bobToken = try #require(h.outputs.welcome(to: 2)?.token)
        let dropped = h.disconnect(2, at: 5)
        #expect(dropped.allSent.isEmpty)
        #expect(dropped.logs.count == 1)
        #expect(h.core.participants(of: h.party).count == 3)
        // While Bob is away, messages skip him.
        #expect(h.send(1, .chat(ChatText(text: "where is Bob?")), at: 6).allSent.map(\.0).sorted() == [1, 3])

        h.connect(4, at: 8)
        let out = h.send(4, h.hello(name: "Bob", resume: bobToken), at: 8)
        let welcome = try #require(out.welcome(to: 4))
        #expect(welcome.you.id == "p2")
        #expect(welcome.you.joinedAt == 1)
        #expect(welcome.token == bobToken)
        #expect(welcome.chat.map(\.text) == ["where is Bob?"])
        // Nobody is told of a join: he never left.
        #expect(out.messages(to: 1).isEmpty && out.messages(to: 3).isEmpty)
        #expect(h.core.participants(of: h.party).count == 3)
        #expect(h.send(3, .chat(ChatText(text: "welcome back")), at: 9).allSent.map(\.0).sorted() == [1, 3, 4])
        // The grace period no longer runs.
        #expect(h.tick(at: 100).isEmpty)
    }

    @Test func hostResumesItsSeatWhileThePartyGoesOn() throws {
        let h = ServerHarness()
        h.standardParty()
        let token = try #require(h.outputs.welcome(to: 1)?.token)
        h.disconnect(1, at: 5)
        h.connect(5, at: 6)
        let welcome = try #require(h.send(5, h.hello(name: "Alice", create: PartyConfig(items: ["x"]), resume: token), at: 6).welcome(to: 5))
        #expect(welcome.you.role == .host)
        #expect(welcome.you.id == "p1")
        #expect(welcome.config.items == ["movie.mp4", "extra.mkv"])
        #expect(h.send(5, .command(Command(id: 1, action: .play)), at: 7).timelines.count == 1)
    }

    @Test func resumeReplacesAStillOpenConnection() throws {
        let h = ServerHarness()
        h.standardParty()
        let token = try #require(h.outputs.welcome(to: 2)?.token)
        h.connect(4, at: 5)
        let out = h.send(4, h.hello(name: "Bob", resume: token), at: 5)
        #expect(out.contains(.close(connection: 2, reason: "replaced by a new connection")))
        #expect(out.welcome(to: 4)?.you.id == "p2")
        // The old connection closing later does not touch the seat.
        #expect(h.disconnect(2, at: 6).isEmpty)
        #expect(h.send(1, .chat(ChatText(text: "hi")), at: 7).allSent.map(\.0).sorted() == [1, 4])
        #expect(h.tick(at: 100).isEmpty)
    }

    @Test func seatIsRemovedWhenGraceRunsOut() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], graceSeconds: 20))
        let bob = try #require(h.outputs.welcome(to: 2))
        h.disconnect(2, at: 5)
        #expect(h.tick(at: 24.9).allSent.isEmpty)
        let out = h.tick(at: 25)
        #expect(out.messages(to: 1) == [.left(Left(participant: bob.you, reason: "connection lost"))])
        #expect(h.core.participants(of: h.party).map(\.name) == ["Alice"])
        #expect(h.tick(at: 30).isEmpty)
        // Too late to resume: a fresh seat instead.
        h.connect(4, at: 40)
        let again = h.send(4, h.hello(name: "Bob", resume: bob.token), at: 40)
        #expect(again.welcome(to: 4)?.you.id == "p3")
        let newSeat = try #require(again.welcome(to: 4)?.you)
        #expect(again.messages(to: 1) == [.joined(newSeat)])
    }

    @Test func hostGraceRunningOutEndsThePartyOrHandsOff() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], graceSeconds: 10))
        h.disconnect(1, at: 5)
        let out = h.tick(at: 15)
        #expect(out.messages(to: 2).contains(.partyEnded(PartyEnded(reason: "the host Alice connection lost"))))
        #expect(h.core.partyCount == 0)

        let g = ServerHarness()
        g.standardParty(PartyConfig(items: ["m"], handoff: true, graceSeconds: 10))
        g.disconnect(1, at: 5)
        let handoff = g.tick(at: 15)
        #expect(handoff.messages(to: 2).contains(.hostChanged(ParticipantInfo(id: "p2", name: "Bob", role: .host, joinedAt: 1))))
        #expect(g.core.partyCount == 1)
    }

    /// Seat tokens are bearer credentials: knowing one's own must not give away another's (the host's).
    @Test func seatTokensCannotBeDerivedFromEachOther() throws {
        let h = ServerHarness()
        h.standardParty()
        let host = try #require(h.outputs.welcome(to: 1)?.token)
        let mine = try #require(h.outputs.welcome(to: 2)?.token)
        #expect(host != mine)
        #expect(mine.count >= 20, "a token carries about 128 random bits")
        // A neighbouring guess does not take the host's seat.
        h.connect(3, at: 5)
        let out = h.send(3, h.hello(name: "Bob", resume: String(mine.dropLast()) + "x"), at: 5)
        #expect(out.welcome(to: 3)?.you.role != .host, "a participant took the host's seat with a guessed token")
        #expect(!out.closed.contains(1), "the host was disconnected by a guessed token")
    }

    // MARK: Stalls

    @Test func stalledParticipantPausesTheGroupUntilReady() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let stallOut = h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12)
        let wait = try #require(stallOut.timelines.first)
        #expect(stallOut.recipients(of: .timeline(wait)) == [1, 2, 3])
        #expect(wait.epoch == 3)
        #expect(!wait.playing)
        #expect(!wait.jump)
        #expect(wait.reason == "waiting for Bob")
        #expect(near(wait.partyTime, 12 + commandLead))
        #expect(near(wait.position, 2))
        // Ready for an older epoch does not count; another member stalling adds no epoch.
        #expect(h.send(2, .status(Status(epoch: 2, state: .ready)), at: 12.5).timelines.isEmpty, "a presence update, no new timeline")
        #expect(h.send(3, .status(Status(epoch: 3, state: .stalled)), at: 12.6).timelines.isEmpty, "a presence update, no new timeline")
        let readyOut = h.send(2, .status(Status(epoch: 3, state: .ready)), at: 13)
        let resume = try #require(readyOut.timelines.first)
        #expect(resume.epoch == 4)
        #expect(resume.playing)
        #expect(resume.reason == "Bob is ready")
        #expect(near(resume.position, 2))
        #expect(near(resume.partyTime, 13 + commandLead))
        #expect(h.tick(at: 20).timelines.isEmpty)
    }

    /// Issue #12 item 8: the party clock stops at the last item's end (a member's terminal showed
    /// `00:01:15 / 00:01:00`): the tick pauses the timeline at the duration, for everyone, once.
    @Test func thePartyStopsAtTheEndOfItsLastItem() throws {
        let h = ServerHarness()
        h.standardParty()  // "movie.mp4", then "extra.mkv": 60 s each
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        // The first item's end is not the party's: it plays on (the next item is the host's to pick).
        #expect(h.tick(at: 10 + commandLead + 61).timelines.isEmpty)
        h.send(1, .command(Command(id: 2, action: .item, value: 1)), at: 100)
        let start = try #require(h.core.timeline(of: h.party))
        #expect(start.item == 1 && start.playing)
        #expect(h.tick(at: start.partyTime + 59.9).timelines.isEmpty, "not before the end")
        let out = h.tick(at: start.partyTime + 60.2)
        let end = try #require(out.timelines.first)
        #expect(out.recipients(of: .timeline(end)) == [1, 2])
        #expect(end.epoch == start.epoch + 1)
        #expect(!end.playing)
        #expect(!end.jump)
        #expect(end.item == 1)
        #expect(end.position == 60)
        #expect(near(end.partyTime, start.partyTime + 60, 1e-6), "paused at the instant the end was reached")
        #expect(end.reason == "the end of extra.mkv")
        #expect(h.core.timeline(of: h.party) == end)
        #expect(end.position(at: start.partyTime + 75) == 60, "the clock no longer counts on")
        #expect(h.tick(at: start.partyTime + 80).timelines.isEmpty, "stopped once")
        // Played again from the end, it stops again; a seek past the end stops at the end.
        h.send(1, .command(Command(id: 3, action: .seek, value: 90)), at: 200)
        h.send(1, .command(Command(id: 4, action: .play)), at: 200.1)
        let clamped = try #require(h.tick(at: 201).timelines.first)
        #expect(!clamped.playing && clamped.position == 60 && clamped.jump)
    }

    /// An item of unknown duration (0: a live stream) plays on.
    @Test func anItemOfUnknownDurationPlaysOn() {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: [MediaItem(title: "live", identity: MediaIdentity(duration: 0, streams: []))]))
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        #expect(h.tick(at: 10_000).timelines.isEmpty)
    }

    @Test func groupGoesOnAfterStallWait() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], stallWaitSeconds: 4))
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12)
        #expect(h.tick(at: 15.9).timelines.isEmpty)
        let out = h.tick(at: 16)
        let resume = try #require(out.timelines.first)
        #expect(resume.playing)
        #expect(resume.epoch == 4)
        #expect(resume.reason == "went on without the stalled participant")
        #expect(out.recipients(of: .timeline(resume)) == [1, 2])
        #expect(h.tick(at: 30).timelines.isEmpty)
    }

    @Test func aMemberTheGroupWentOnWithoutDoesNotPauseItAgainUntilReady() throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["m"], stallWaitSeconds: 4))
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12)
        let resume = try #require(h.tick(at: 16).timelines.first)
        // Still behind: its once-a-second statuses say stalled, for the new epoch too.
        #expect(h.send(2, .status(Status(epoch: resume.epoch, state: .stalled)), at: 16.5).timelines.isEmpty)
        #expect(h.send(2, .status(Status(epoch: resume.epoch, state: .stalled)), at: 17.5).timelines.isEmpty)
        // Caught up, then stalled again: a new stall, waited for again.
        #expect(h.send(2, .status(Status(epoch: resume.epoch, state: .ready)), at: 20).timelines.isEmpty)
        let again = try #require(h.send(2, .status(Status(epoch: resume.epoch, state: .stalled)), at: 25).timelines.first)
        #expect(!again.playing)
        #expect(again.reason == "waiting for Bob")
    }

    @Test func stallWhilePausedChangesNothing() {
        let h = ServerHarness()
        h.standardParty()
        #expect(h.send(2, .status(Status(epoch: 1, state: .stalled)), at: 5).timelines.isEmpty, "a presence update, no new timeline")
        #expect(h.tick(at: 60).isEmpty)
        #expect(h.core.timeline(of: h.party)?.epoch == 1)
    }

    @Test func aCommandDuringTheWaitCancelsIt() throws {
        let h = ServerHarness()
        h.standardParty()
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12)
        let pause = try #require(h.send(1, .command(Command(id: 2, action: .pause)), at: 12.5).timelines.first)
        #expect(pause.epoch == 4)
        #expect(h.tick(at: 20).timelines.isEmpty)
        #expect(h.send(2, .status(Status(epoch: 4, state: .ready)), at: 21).timelines.isEmpty, "a presence update, no new timeline")
        #expect(h.core.timeline(of: h.party)?.playing == false)
    }

    @Test(arguments: [Command.Action.seek, .item, .rate])
    func aJumpOrRateDuringTheWaitKeepsThePartyPlaying(_ action: Command.Action) throws {
        let h = ServerHarness()
        h.standardParty(PartyConfig(items: ["a", "b"]))
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let wait = try #require(h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12).timelines.first)
        #expect(!wait.playing)
        // The pause was the wait's, not anyone's choice: the host's next step plays on.
        let next = try #require(h.send(1, .command(Command(id: 2, action: action, value: 1)), at: 12.5).timelines.first)
        #expect(next.playing)
        #expect(h.tick(at: 30).timelines.isEmpty)
    }

    // MARK: Restore

    @Test func restoreContinuesTheEpochs() throws {
        let h = ServerHarness()
        var config = PartyConfig(items: ["movie.mp4", "extra.mkv"])
        config.restore = .init(epoch: 7, item: 1, position: 33.5, rate: 1.25, playing: true)
        let welcome = try #require(h.join(1, name: "Alice", create: config, at: 50))
        #expect(welcome.timeline == Timeline(epoch: 8, item: 1, position: 33.5, partyTime: 50 + PartyServerCore.minLead,
                                             rate: 1.25, playing: true, jump: false, reason: "Alice restored the party"))
        let next = try #require(h.send(1, .command(Command(id: 1, action: .pause)), at: 60).timelines.first)
        #expect(next.epoch == 9)
        #expect(near(next.position, 33.5 + (60 + commandLead - 50.1) * 1.25, 1e-6))
    }

    @Test func restoreIsSanitized() throws {
        var config = PartyConfig(items: ["a", "b"])
        config.restore = .init(epoch: 3, item: 0, position: -5, rate: 50, playing: false)
        let h = ServerHarness()
        let t = try #require(h.join(1, name: "Alice", create: config, at: 0)?.timeline)
        #expect(t.epoch == 4)
        #expect(t.position == 0)
        #expect(t.rate == 4)

        config.restore = .init(epoch: 3, item: 5, position: 10, rate: 1, playing: true)
        let g = ServerHarness()
        let fresh = try #require(g.join(1, name: "Alice", create: config, at: 0)?.timeline)
        #expect(fresh.epoch == 1)
        #expect(fresh.item == 0)
        #expect(!fresh.playing)
    }

    @Test func restoreIsIgnoredForAPartyThatStillExists() throws {
        let h = ServerHarness()
        h.standardParty()
        let token = try #require(h.outputs.welcome(to: 1)?.token)
        h.disconnect(1, at: 5)
        var config = PartyConfig(items: ["movie.mp4", "extra.mkv"])
        config.restore = .init(epoch: 40, item: 1, position: 99, rate: 2, playing: true)
        h.connect(3, at: 6)
        let welcome = try #require(h.send(3, h.hello(name: "Alice", create: config, resume: token), at: 6).welcome(to: 3))
        #expect(welcome.timeline.epoch == 1)
        #expect(welcome.you.id == "p1")
    }

    // MARK: Misc

    @Test func unknownConnectionsAreIgnored() {
        var core = PartyServerCore()
        let received = core.received(42, text: "{}", now: 0)
        let disconnected = core.disconnected(42, now: 0)
        let ticked = core.tick(now: 100)
        #expect(received.isEmpty && disconnected.isEmpty && ticked.isEmpty)
        #expect(core.partyCount == 0)
    }
}

/// Everyone sees what each member's player is doing; a member that cannot play is not waited for.
@Suite struct PresenceTests {
    @Test func aStatusChangeIsToldToEveryoneOnce() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        let out = h.send(2, .status(Status(epoch: 1, state: .ready, source: "streaming")), at: 5)
        let bob = try #require(h.core.participants(of: h.party).first { $0.name == "Bob" })
        #expect(bob.presence == Presence(state: .watching, source: "streaming"))
        #expect(out.recipients(of: .presence(bob)) == [1, 2, 3])
        // The same again is no news.
        #expect(h.send(2, .status(Status(epoch: 1, state: .ready, source: "streaming")), at: 6).isEmpty)
    }

    @Test func aMemberThatCannotPlayIsListedSoAndNotWaitedFor() throws {
        let h = ServerHarness()
        h.standardParty(carol: true)
        h.send(1, .command(Command(id: 1, action: .play)), at: 10)
        let wait = try #require(h.send(2, .status(Status(epoch: 2, state: .stalled)), at: 12).timelines.first)
        #expect(!wait.playing)
        let out = h.send(2, .status(Status(epoch: 3, state: .unavailable, problem: "HTTP 404 not found")), at: 12.5)
        let bob = try #require(h.core.participants(of: h.party).first { $0.name == "Bob" })
        #expect(bob.presence == Presence(state: .unavailable, problem: "HTTP 404 not found"))
        #expect(out.recipients(of: .presence(bob)) == [1, 2, 3])
        let resume = try #require(out.timelines.first)
        #expect(resume.playing)
        #expect(resume.reason == "went on without Bob")
        // And it never stalls the group again while it cannot play.
        #expect(h.send(2, .status(Status(epoch: 4, state: .unavailable, problem: "HTTP 404 not found")), at: 13).isEmpty)
    }

    @Test func problemsAreCutToOneLine() {
        let long = String(repeating: "x", count: 5000)
        #expect(Status(epoch: 1, state: .unavailable, problem: long).problem?.count == PartyProtocol.maxProblemLength)
    }
}

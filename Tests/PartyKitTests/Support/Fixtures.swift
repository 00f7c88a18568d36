@testable import PartyKit

/// Sample values shared by the PartyKit suites.
enum Fixtures {
    static let alice = ParticipantInfo(id: "p1", name: "Alice", role: .host, joinedAt: 10.5)
    static let bob = ParticipantInfo(id: "p2", name: "Bob", role: .participant, joinedAt: 12.25)

    static var config: PartyConfig {
        var c = PartyConfig(items: ["movie.mp4", "extra.mkv"], control: .everyone, handoff: true,
                            graceSeconds: 12.5, stallWaitSeconds: 4)
        c.restore = .init(epoch: 7, item: 1, position: 33.5, rate: 1.25, playing: true)
        return c
    }

    static let timeline = Timeline(epoch: 3, item: 1, position: 42.125, partyTime: 1000.75, rate: 1.5,
                                   playing: true, jump: false, reason: "Alice: rate")

    static let chatLine = ChatMessage(from: "Bob", text: "hi there \u{1F44B} \"quoted\" \\ back", time: 1001.5)

    static var welcome: Welcome {
        Welcome(version: PartyProtocol.version, party: "brave-otter-42", you: bob, token: "tok123",
                config: config, participants: [alice, bob], timeline: timeline, chat: [chatLine], serverTime: 1002.25)
    }

    /// One value of every `PartyMessage` case (payload variants where optional fields matter).
    static var everyMessage: [PartyMessage] {
        [
            .hello(Hello(party: "brave-otter-42", key: "s3cret", name: "Alice", create: config, resume: "tok")),
            .hello(Hello(version: 9, party: "x", key: "k", name: "")),
            .timePing(TimePing(id: 17, t0: 123.456)),
            .command(Command(id: 3, action: .play)),
            .command(Command(id: 4, action: .pause)),
            .command(Command(id: 5, action: .seek, value: 61.5)),
            .command(Command(id: 6, action: .rate, value: 0.75)),
            .command(Command(id: 7, action: .item, value: 1)),
            .status(Status(epoch: 4, state: .ready, skewMs: -1.5, rttMs: 20.25, offsetUncertaintyMs: 0.5)),
            .status(Status(epoch: 0, state: .syncing)),
            .status(Status(epoch: 9, state: .stalled)),
            .chat(ChatText(text: "hello, world ünïcödé")),
            .listParticipants,
            .bye,
            .welcome(welcome),
            .timePong(TimePong(id: 17, t0: 123.456, t1: 5000.125, t2: 5000.25)),
            .timeline(timeline),
            .timeline(Timeline()),
            .joined(bob),
            .left(Left(participant: bob, reason: "left the party")),
            .participants(ParticipantList(participants: [alice, bob])),
            .participants(ParticipantList(participants: [])),
            .chatMessage(chatLine),
            .refused(Refused(id: 5, reason: "only the host can seek")),
            .error(ErrorMessage(code: .wrongKey, message: "wrong key")),
            .partyEnded(PartyEnded(reason: "the host left")),
            .hostChanged(bob),
        ]
    }
}

/// Every wire type name, in declaration order.
let allMessageTypes = ["hello", "timePing", "command", "status", "chat", "listParticipants", "bye", "welcome",
                       "timePong", "timeline", "joined", "left", "participants", "chatMessage", "refused", "error",
                       "partyEnded", "hostChanged"]

/// In the pure core's tests an item is just its title: nothing opens or checks it.
extension MediaItem: ExpressibleByStringLiteral {
    public init(stringLiteral title: String) {
        self.init(title: title, identity: MediaIdentity(duration: 60, streams: ["video h264 640x360"]))
    }
}

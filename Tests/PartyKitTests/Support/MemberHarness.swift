import MediaTime
import Testing
@testable import PartyKit

/// Drives a `ParticipantCore` against a scripted server whose party clock is the member's local
/// clock plus `offset`, answering every time ping over a symmetric `oneWay` delay.
final class MemberHarness {
    typealias Action = ParticipantCore.Action

    var core: ParticipantCore
    let offset: Double
    let oneWay: Double
    private(set) var now = 0.0
    /// Everything the core asked for, in order, with the local time it did.
    private(set) var log: [(time: Double, action: Action)] = []
    private var pongs: [(at: Double, pong: TimePong)] = []
    /// Whether time pings are answered.
    var answerPings = true

    init(hello: Hello, offset: Double = 1000, oneWay: Double = 0.01, tuning: SyncController.Tuning = .init()) {
        core = ParticipantCore(hello: hello, tuning: tuning)
        self.offset = offset
        self.oneWay = oneWay
    }

    static func participant() -> MemberHarness {
        MemberHarness(hello: Hello(party: "brave-otter-42", key: "s3cret", name: "Bob"))
    }

    static func host() -> MemberHarness {
        MemberHarness(hello: Hello(party: "brave-otter-42", key: "s3cret", name: "Alice",
                                   create: PartyConfig(items: ["movie.mp4", "extra.mkv"])))
    }

    func party(_ local: Double) -> Double { local + offset }
    func local(_ party: Double) -> Double { party - offset }

    // MARK: Inputs

    @discardableResult
    func start() -> [Action] { record(core.start(now: now)) }

    @discardableResult
    func receive(_ message: PartyMessage) -> [Action] {
        // Everything a server sends crosses the wire first.
        guard let wire = try? PartyProtocol.decode(PartyProtocol.encode(message)), wire == message else {
            Issue.record("message does not survive the wire: \(message)")
            return []
        }
        return record(core.receive(wire, now: now))
    }

    @discardableResult
    func tick(position: Double? = nil, prerolling: Bool = false) -> [Action] {
        record(core.tick(now: now, player: position.map { .init(position: $0, prerolling: prerolling) }))
    }

    @discardableResult
    func seekCompleted(epoch: Int) -> [Action] { record(core.seekCompleted(epoch: epoch, now: now)) }

    @discardableResult
    func reconnect() -> [Action] {
        pongs.removeAll()
        return record(core.reconnect(now: now))
    }

    /// Moves the clock to `t` in small steps, delivering due pongs and ticking the core with
    /// the player position `player(now)` (nil: no player yet). Returns what was asked meanwhile.
    @discardableResult
    func advance(to t: Double, step: Double = 0.005, player: (Double) -> Double? = { _ in nil }) -> [Action] {
        var out: [Action] = []
        while now + step <= t + 1e-9 {
            now += step
            while let first = pongs.first, first.at <= now + 1e-12 {
                pongs.removeFirst()
                out += receive(.timePong(first.pong))
            }
            out += tick(position: player(now))
        }
        return out
    }

    func set(now: Double) { self.now = now }

    private func record(_ actions: [Action]) -> [Action] {
        for action in actions {
            log.append((now, action))
            if answerPings, case .send(.timePing(let ping)) = action {
                let t1 = party(ping.t0) + oneWay
                pongs.append((ping.t0 + 2 * oneWay, TimePong(id: ping.id, t0: ping.t0, t1: t1, t2: t1)))
            }
        }
        return actions
    }

    // MARK: Set-ups

    func welcome(you: ParticipantInfo = Fixtures.bob, timeline: Timeline, chat: [ChatMessage] = [],
                 config: PartyConfig = PartyConfig(items: ["movie.mp4", "extra.mkv"]), token: String = "tok-1") -> Welcome {
        Welcome(version: PartyProtocol.version, party: "brave-otter-42", you: you, token: token, config: config,
                participants: [Fixtures.alice, Fixtures.bob], timeline: timeline, chat: chat, serverTime: party(now))
    }

    /// Joins with `timeline` at the current time and runs the ping burst until the first seek;
    /// completes that seek unless told otherwise. Returns the seek.
    @discardableResult
    func join(timeline: Timeline, you: ParticipantInfo = Fixtures.bob, config: PartyConfig = PartyConfig(items: ["movie.mp4", "extra.mkv"]),
              completeSeek: Bool = true) -> Seek? {
        start()
        receive(.welcome(welcome(you: you, timeline: timeline, config: config)))
        var seek: Seek?
        for _ in 0..<400 where seek == nil {
            seek = advance(to: now + 0.005).compactMap(Seek.init).first
        }
        if let seek, completeSeek { seekCompleted(epoch: seek.epoch) }
        return seek
    }

    // MARK: Reading actions

    struct Seek: Equatable {
        var item: Int, position: Double, at: Double, playing: Bool, rate: Double, epoch: Int, catchUp: Bool
        init?(_ action: Action) {
            guard case .seek(let item, let position, let at, let playing, let rate, let epoch, let catchUp) = action else { return nil }
            self.item = item; self.position = position; self.at = at; self.playing = playing
            self.rate = rate; self.epoch = epoch; self.catchUp = catchUp
        }
    }

    var sent: [(time: Double, message: PartyMessage)] {
        log.compactMap { if case .send(let m) = $0.action { ($0.time, m) } else { nil } }
    }

    var pingTimes: [Double] {
        sent.compactMap { if case .timePing(let p) = $0.message { p.t0 } else { nil } }
    }
}

extension Array where Element == ParticipantCore.Action {
    var seeks: [MemberHarness.Seek] { compactMap(MemberHarness.Seek.init) }
    var corrections: [Double] { compactMap { if case .setCorrection(let c) = $0 { c } else { nil } } }
    var clockSwitches: [(clock: MediaClock, epoch: Int)] {
        compactMap { if case .switchClock(let c, let e) = $0 { (c, e) } else { nil } }
    }
    var statuses: [Status] { compactMap { if case .send(.status(let s)) = $0 { s } else { nil } } }
    var pings: [TimePing] { compactMap { if case .send(.timePing(let p)) = $0 { p } else { nil } } }
    var notices: [PartyNotice] { compactMap { if case .notice(let n) = $0 { n } else { nil } } }
    var disconnects: [String] { compactMap { if case .disconnect(let r) = $0 { r } else { nil } } }
}

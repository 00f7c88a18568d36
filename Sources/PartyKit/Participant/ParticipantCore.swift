import MediaTime

/// A party member (host or participant) as a pure state machine: it keeps the clock sync, follows
/// the timeline epoch by epoch, and reconciles its player, driven by messages, ticks and what the
/// player reports, all on the member's own clock (`now`). The driver turns its actions into
/// messages and player calls — over real sockets or simulated links alike.
public struct ParticipantCore: Sendable {
    public enum Action: Sendable, Equatable {
        case send(PartyMessage)
        /// Accurate seek to `position` of `item`, prerolled to land at local host time `at`.
        /// `catchUp`: a join or re-seek landing when it can, not a command's shared instant.
        case seek(item: Int, position: Double, at: Double, playing: Bool, rate: Double, epoch: Int, catchUp: Bool)
        /// Switch the player's clock at its anchor instant (local host time), without seeking.
        case switchClock(MediaClock, epoch: Int)
        case setCorrection(Double)
        case notice(PartyNotice)
        case disconnect(reason: String)
        /// The party lives on another node of the cluster: close this connection and say the same
        /// hello there (``reconnect(now:)``) at once.
        case redirect(NodeAddress)
    }

    /// How often the player is checked against the timeline.
    public static let checkInterval = 0.1
    public static let statusInterval = 1.0
    /// A first seek (join) or re-seek lands this far ahead, to preroll.
    public static let seekLead = 0.3
    /// A paused player further than this from the paused position is re-seeked (half a frame at 25 fps).
    public static let pausedTolerance = 0.02
    /// Corrections closer than this to the one in force are not re-sent to the player.
    public static let correctionStep = 1e-5

    public let hello: Hello
    /// Where it is in the party's lifecycle (``Phase``): greeting, seated (with its player's own
    /// ``PlayerPhase``) or ended. What exists only in one phase is carried by it.
    public internal(set) var phase = Phase.greeting
    public internal(set) var clockSync = ClockSync()
    public internal(set) var controller: SyncController
    var pings: [Int: Double] = [:]
    var nextPingID = 1
    var nextPing = -Double.infinity
    var nextCheck = -Double.infinity
    var nextStatus = -Double.infinity
    var nextCommandID = 1
    /// Where this member plays the current item from, and why it cannot (reported by its player).
    public internal(set) var mediaSource: String?
    public internal(set) var mediaProblem: String?
    /// Its sound output as last told to the party (``outputReport(_:now:)``).
    public internal(set) var soundOutput: OutputReport?

    public init(hello: Hello, tuning: SyncController.Tuning = .init()) {
        self.hello = hello
        controller = SyncController(tuning: tuning)
    }

    // MARK: Observed (from the phase: the seat it has, or had when the party ended)

    /// Who it is in the party (nil before its welcome).
    public var me: ParticipantInfo? { phase.seat?.me }
    /// What takes its seat back after a reconnect (nil before its welcome).
    public var token: String? { phase.seat?.token }
    public var config: PartyConfig? { phase.seat?.config }
    /// The party's latest timeline epoch (nil before its welcome).
    public var timeline: Timeline? { phase.seat?.timeline }
    public var participants: [ParticipantInfo] { phase.seat?.participants ?? [] }
    /// In a cluster: the live nodes the last welcome listed, where to reconnect if this node dies.
    public var nodes: [NodeAddress] { phase.seat?.nodes ?? [] }
    /// The epoch the player follows (0: none yet).
    public var appliedEpoch: Int { phase.seat?.player.appliedEpoch ?? 0 }
    /// The player's error against the timeline at the last check (seconds, + ahead).
    public var lastError: Double? { phase.seat?.lastError }
    /// The party ended for it, or the server refused it for good.
    public var ended: Bool { phase.isEnded }

    /// Seated: welcomed, and the party has not ended for it.
    public var isJoined: Bool { phase.isSeated }
    /// Its player follows the timeline: its seek landed, its stream is not dry.
    public var isSynced: Bool { phase.seat?.isSynced ?? false }
    /// Its stream ran dry: refilling, or seeking back onto the timeline.
    public var isBuffering: Bool { phase.seat?.buffering.isActive ?? false }

    public func partyTime(local: Double) -> Double? { clockSync.party(fromLocal: local) }

    // MARK: Inputs

    /// The first hello (and the same again after a redirect, or a connection that never got a welcome).
    public mutating func start(now: Double) -> [Action] {
        guard !phase.isEnded else { return [] }
        return [.send(.hello(hello))]
    }

    /// After a dropped connection: a fresh hello that takes the same seat back. The clock is
    /// measured anew (the server may have restarted, even elsewhere). A host also re-creates the
    /// party where it was, in case the server lost it. The phase stays: a seated member keeps its
    /// seat, its player following what it was until the welcome says otherwise.
    public mutating func reconnect(now: Double) -> [Action] {
        var again = hello
        switch phase {
        case .ended:
            return []
        case .greeting:
            // Never got in: no seat to take back (a host retries its create as it was).
            again.resume = nil
        case .seated(var seat):
            seat.buffering.reset()
            phase = .seated(seat)
            again.resume = seat.token
            again.create = seat.me.role == .host ? restoring(seat) : nil
        }
        clockSync = ClockSync()
        pings.removeAll()
        nextPing = -Double.infinity
        return [.send(.hello(again))]
    }

    /// What a host re-creates its party with: its config, the timeline where the party was at the last check.
    func restoring(_ seat: Seat) -> PartyConfig {
        var config = seat.config
        let timeline = seat.timeline
        config.restore = .init(epoch: max(timeline.epoch, seat.player.appliedEpoch), item: timeline.item,
                               position: seat.lastPartyNow.map { timeline.position(at: $0) } ?? timeline.position,
                               rate: timeline.rate, playing: timeline.playing)
        return config
    }

    /// Time passes (see ``nextWake(after:checking:)``): pings, the player checked against the
    /// timeline (`player`: what it says now, nil if there is none yet), statuses. Only while seated.
    public mutating func tick(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard case .seated(var seat) = phase else { return [] }
        defer { phase = .seated(seat) }
        var out: [Action] = []
        if now >= nextPing { out += ping(now: now) }
        if now >= nextCheck {
            nextCheck = now + Self.checkInterval
            out += watchBuffer(&seat, now: now, player: player)
            // A player that ran dry is not drifting: it waits for its input (re-seeking would only
            // throw away what it has read).
            if !seat.buffering.isActive, player?.starved != true { out += reconcile(&seat, now: now, player: player) }
        }
        if !seat.buffering.isActive, mediaProblem == nil, seat.player.stall(now: now) {
            // The instant passed and the seek is not ready: the group should know.
            out.append(statusMessage(.stalled, seat: seat))
        }
        if now >= nextStatus {
            nextStatus = now + Self.statusInterval
            out.append(statusMessage(currentState(seat), seat: seat))
        }
        return out
    }

    /// When the driver should call `tick` next. `checking`: whether a player is checked against the
    /// timeline (every ``checkInterval``); a driver with no player at all (a `tandem bench load`
    /// member) has nothing to check, and wakes only for its pings and statuses.
    public func nextWake(after now: Double, checking: Bool = true) -> Double {
        guard isJoined else { return now + 1 }
        return min(nextPing, checking ? nextCheck : .infinity, nextStatus)
    }

    /// A control request (the server decides whether and when).
    public mutating func request(_ action: Command.Action, value: Double? = nil) -> Action {
        defer { nextCommandID += 1 }
        return .send(.command(Command(id: nextCommandID, action: action, value: value)))
    }

    // MARK: Time pings

    mutating func ping(now: Double) -> [Action] {
        // Answers that will never come (a new dictionary only when one has expired: this runs per ping).
        if pings.values.contains(where: { now - $0 >= ClockSync.pingAnswerTimeout }) {
            pings = pings.filter { now - $0.value < ClockSync.pingAnswerTimeout }
        }
        // A burst never has more than `burstCount` pings unanswered, nor the steady pace more than
        // `maxPingsInFlight`: round trips longer than the pace (a join storm, a loaded server) wait
        // for answers, which bring the pace back, instead of piling pings onto the backlog.
        let cap = clockSync.isBursting ? ClockSync.burstCount : ClockSync.maxPingsInFlight
        if pings.count >= cap {
            nextPing = now + ClockSync.steadyInterval
            return []
        }
        let id = nextPingID
        nextPingID += 1
        pings[id] = now
        // Back to back until `burstCount` answers are in (a few more pings than that are in flight by
        // then, and the extra low-delay samples sharpen the first estimate), then the steady pace.
        nextPing = now + clockSync.nextInterval
        return [.send(.timePing(TimePing(id: id, t0: now)))]
    }
}

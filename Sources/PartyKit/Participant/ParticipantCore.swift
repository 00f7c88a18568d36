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
    public internal(set) var clockSync = ClockSync()
    public internal(set) var controller: SyncController
    public internal(set) var me: ParticipantInfo?
    public internal(set) var token: String?
    public internal(set) var config: PartyConfig?
    public internal(set) var timeline: Timeline?
    public internal(set) var participants: [ParticipantInfo] = []
    /// In a cluster: the live nodes the last welcome listed, where to reconnect if this node dies.
    public internal(set) var nodes: [NodeAddress] = []
    /// The epoch the player follows, and whether its seek is still prerolling.
    public internal(set) var appliedEpoch = 0
    var awaitingSeek: (epoch: Int, at: Double)?
    /// The player holds a seek's picture until this local instant: nothing to reconcile before it.
    var holdUntil = -Double.infinity
    var everSynced = false
    var reportedStall = false
    /// Whether the stream ran dry and the player is refilling it (``BufferingWatch``).
    var buffering = BufferingWatch()
    var correction = 0.0
    public internal(set) var lastError: Double?
    /// The party clock at the last check (what a host restores its party from).
    var lastPartyNow: Double?
    var pings: [Int: Double] = [:]
    var nextPingID = 1
    var nextPing = -Double.infinity
    var nextCheck = -Double.infinity
    var nextStatus = -Double.infinity
    var nextCommandID = 1
    public internal(set) var ended = false
    /// Where this member plays the current item from, and why it cannot (reported by its player).
    public internal(set) var mediaSource: String?
    public internal(set) var mediaProblem: String?

    public init(hello: Hello, tuning: SyncController.Tuning = .init()) {
        self.hello = hello
        controller = SyncController(tuning: tuning)
    }

    public var isJoined: Bool { me != nil && !ended }
    public var isSynced: Bool { everSynced && awaitingSeek == nil && !buffering.isActive }
    /// Its stream ran dry: refilling, or seeking back onto the timeline.
    public var isBuffering: Bool { buffering.isActive }

    public func partyTime(local: Double) -> Double? { clockSync.party(fromLocal: local) }

    // MARK: Inputs

    public mutating func start(now: Double) -> [Action] {
        [.send(.hello(hello))]
    }

    /// After a dropped connection: a fresh hello that takes the same seat back. The clock is
    /// measured anew (the server may have restarted, even elsewhere). A host also re-creates the
    /// party where it was, in case the server lost it.
    public mutating func reconnect(now: Double) -> [Action] {
        clockSync = ClockSync()
        pings.removeAll()
        buffering.reset()
        nextPing = -Double.infinity
        var again = hello
        again.resume = token
        if me?.role == .host || (me == nil && hello.create != nil), var config = config ?? hello.create {
            if let timeline {
                let position = timeline.position  // refined below when the clock is known
                config.restore = .init(epoch: max(timeline.epoch, appliedEpoch), item: timeline.item,
                                       position: lastPartyNow.map { timeline.position(at: $0) } ?? position,
                                       rate: timeline.rate, playing: timeline.playing)
            }
            again.create = config
        } else {
            again.create = nil
        }
        return [.send(.hello(again))]
    }

    public mutating func tick(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard isJoined else { return [] }
        var out: [Action] = []
        if now >= nextPing { out += ping(now: now) }
        if now >= nextCheck {
            nextCheck = now + Self.checkInterval
            out += watchBuffer(now: now, player: player)
            // A player that ran dry is not drifting: it waits for its input (re-seeking would only
            // throw away what it has read).
            if !buffering.isActive, player?.starved != true { out += reconcile(now: now, player: player) }
        }
        if let waiting = awaitingSeek, everSynced, !reportedStall, !buffering.isActive, mediaProblem == nil, now > waiting.at {
            // The instant passed and the seek is not ready: the group should know.
            reportedStall = true
            out.append(statusMessage(.stalled))
        }
        if now >= nextStatus {
            nextStatus = now + Self.statusInterval
            out.append(statusMessage(currentState))
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

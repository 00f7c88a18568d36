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

    /// What the player tells the controller at each tick.
    public struct PlayerSnapshot: Sendable {
        public var position: Double
        public var prerolling: Bool
        /// Its clock runs but it has nothing read for the instant it should present (a stream that ran dry).
        public var starved: Bool
        /// Media seconds read ahead of its position (nil: unknown, a local file: plenty).
        public var readAhead: Double?
        /// Its input is read to the end: nothing more will come.
        public var inputEnded: Bool
        public init(position: Double, prerolling: Bool, starved: Bool = false, readAhead: Double? = nil, inputEnded: Bool = false) {
            self.position = position
            self.prerolling = prerolling
            self.starved = starved
            self.readAhead = readAhead
            self.inputEnded = inputEnded
        }
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
    public private(set) var clockSync = ClockSync()
    public private(set) var controller: SyncController
    public private(set) var me: ParticipantInfo?
    public private(set) var token: String?
    public private(set) var config: PartyConfig?
    public private(set) var timeline: Timeline?
    public private(set) var participants: [ParticipantInfo] = []
    /// In a cluster: the live nodes the last welcome listed, where to reconnect if this node dies.
    public private(set) var nodes: [NodeAddress] = []
    /// The epoch the player follows, and whether its seek is still prerolling.
    public private(set) var appliedEpoch = 0
    private var awaitingSeek: (epoch: Int, at: Double)?
    /// The player holds a seek's picture until this local instant: nothing to reconcile before it.
    private var holdUntil = -Double.infinity
    private var everSynced = false
    private var reportedStall = false
    /// Whether the stream ran dry and the player is refilling it (``BufferingWatch``).
    private(set) var buffering = BufferingWatch()
    private var correction = 0.0
    public private(set) var lastError: Double?
    /// The party clock at the last check (what a host restores its party from).
    private var lastPartyNow: Double?
    private var pings: [Int: Double] = [:]
    private var nextPingID = 1
    private var nextPing = -Double.infinity
    private var nextCheck = -Double.infinity
    private var nextStatus = -Double.infinity
    private var nextCommandID = 1
    public private(set) var ended = false
    /// Where this member plays the current item from, and why it cannot (reported by its player).
    public private(set) var mediaSource: String?
    public private(set) var mediaProblem: String?

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

    /// A message from the server. `receivedAt`: when the transport read it off the socket (a time
    /// pong's t3: a member busy elsewhere must not make that wait look like network delay); `now`:
    /// when it is handled.
    public mutating func receive(_ message: PartyMessage, receivedAt: Double? = nil, now: Double) -> [Action] {
        switch message {
        case .welcome(let welcome):
            if me != nil, welcome.timeline.epoch <= appliedEpoch {
                // Back on the same timeline: it applies once the clock is measured again.
                appliedEpoch = welcome.timeline.epoch - 1
            }
            me = welcome.you
            token = welcome.token
            config = welcome.config
            participants = welcome.participants
            timeline = welcome.timeline
            if let listed = welcome.nodes { nodes = listed }
            nextPing = now
            var out: [Action] = [.notice(.joined(welcome))]
            out += welcome.chat.map { .notice(.chat($0)) }
            return out + ping(now: now)
        case .timePong(let pong):
            // The driver may stamp t0 as the ping leaves (later than it was made here): the echo is
            // trusted if it lies between the making and the answer's arrival.
            let t3 = min(receivedAt ?? now, now)
            guard let made = pings.removeValue(forKey: pong.id), pong.t0 >= made, pong.t0 <= t3 else { return [] }
            clockSync.add(ClockSync.Sample(t0: pong.t0, t1: pong.t1, t2: pong.t2, t3: t3))
            // A disturbance brings the pace back at once, not after the long wait a converged clock had set.
            if !clockSync.isBursting { nextPing = min(nextPing, now + clockSync.nextInterval) }
            return applyTimeline(now: now)
        case .timeline(let next):
            guard next.epoch > (timeline?.epoch ?? 0) else { return [] }  // stale epoch: ignore
            timeline = next
            var out: [Action] = []
            if let reason = next.reason { out.append(.notice(.timeline(next, reason: reason))) }
            if buffering.timeline(epoch: next.epoch, playing: next.playing, now: now) {
                // The group went on without this member: it stops asking it to wait, and rejoins when it can.
                out.append(statusMessage(currentState))
            }
            return out + applyTimeline(now: now)
        case .joined(let info):
            participants.removeAll { $0.id == info.id }
            participants.append(info)
            return [.notice(.participantJoined(info))]
        case .left(let left):
            participants.removeAll { $0.id == left.participant.id }
            return [.notice(.participantLeft(left.participant, reason: left.reason))]
        case .participants(let list):
            participants = list.participants
            return [.notice(.participantList(list.participants))]
        case .presence(let info):
            let before = participants.first { $0.id == info.id }?.presence
            participants = participants.map { $0.id == info.id ? info : $0 }
            // "syncing" is every joiner's first second: not worth a line (buffering is), nor is a
            // change people would not see ("buffering" asking the group to wait, then not).
            let item = timeline?.item ?? 0
            guard info.id != me?.id, info.presence?.text(item: item) != before?.text(item: item),
                  info.presence?.state != .syncing || info.presence?.isBuffering == true else { return [] }
            return [.notice(.presenceChanged(info, item: item))]
        case .hostChanged(let info):
            participants = participants.map { $0.id == info.id ? info : ($0.role == .host ? demoted($0) : $0) }
            if info.id == me?.id { me = info }
            return [.notice(.hostChanged(info))]
        case .chatMessage(let line):
            return [.notice(.chat(line))]
        case .refused(let refused):
            return [.notice(.refused(refused.reason))]
        case .error(let error) where error.code == .redirect && error.redirect != nil:
            return [.redirect(error.redirect!)]
        case .error(let error):
            // Rejoining a party the server lost: the host may re-create it; try again later.
            if token != nil, error.code == .unknownParty || error.code == .serverShutdown {
                return [.notice(.error(error)), .disconnect(reason: error.message)]
            }
            ended = true
            return [.notice(.error(error)), .disconnect(reason: error.message)]
        case .partyEnded(let end):
            ended = true
            return [.notice(.partyEnded(end.reason)), .disconnect(reason: end.reason)]
        default:
            return []
        }
    }

    /// Where the player opened the current item from (`source`), or why it could not (`problem`):
    /// a member that cannot play says so at once, and is not waited for.
    public mutating func mediaReport(source: String?, problem: String?, now: Double) -> [Action] {
        guard source != mediaSource || problem != mediaProblem else { return [] }
        mediaSource = source
        mediaProblem = problem
        if problem != nil { buffering.reset() }
        guard isJoined else { return [] }
        return [statusMessage(currentState)]
    }

    /// The player finished prerolling the seek it was given for `epoch`.
    public mutating func seekCompleted(epoch: Int, now: Double) -> [Action] {
        guard awaitingSeek?.epoch == epoch else { return [] }
        awaitingSeek = nil
        everSynced = true
        controller.noteSeek(at: now)
        let wasBuffering = buffering.isActive
        buffering.rejoined()
        if reportedStall || wasBuffering {
            reportedStall = false
            return [statusMessage(.ready)]
        }
        return []
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

    /// What its status says now.
    private var currentState: Status.State {
        if mediaProblem != nil { return .unavailable }
        if buffering.isActive { return buffering.isBlocking ? .stalled : .syncing }
        if awaitingSeek == nil && everSynced { return .ready }
        return reportedStall ? .stalled : .syncing
    }

    /// Notices a stream that ran dry (hold the picture, tell the party) and one that recovered
    /// (seek back to where the party is).
    private mutating func watchBuffer(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, let player, !player.prerolling, everSynced,
              mediaProblem == nil, awaitingSeek == nil || buffering.isActive else { return [] }
        let event = buffering.update(now: now, epoch: timeline.epoch, playing: timeline.playing, starved: player.starved,
                                     readAhead: player.readAhead, inputEnded: player.inputEnded)
        switch event {
        case .ranDry:
            // The picture holds where it ran dry, so what arrives is kept for when it rejoins.
            let hold = MediaClock(position: player.position, host: now, rate: timeline.rate, paused: true)
            return [.switchClock(hold, epoch: appliedEpoch), statusMessage(currentState)]
        case .recovered:
            reportedStall = buffering.isBlocking
            return reseek(timeline, sync: sync, now: now) + [statusMessage(currentState)]
        case nil:
            return []
        }
    }

    /// When the driver should call `tick` next.
    public func nextWake(after now: Double) -> Double {
        guard isJoined else { return now + 1 }
        return min(nextPing, nextCheck, nextStatus)
    }

    /// A control request (the server decides whether and when).
    public mutating func request(_ action: Command.Action, value: Double? = nil) -> Action {
        defer { nextCommandID += 1 }
        return .send(.command(Command(id: nextCommandID, action: action, value: value)))
    }

    public func statusMessage(_ state: Status.State) -> Action {
        .send(.status(Status(epoch: appliedEpoch, state: state, skewMs: lastError.map { $0 * 1000 }.flatMap { $0.isFinite ? $0 : nil },
                             rttMs: clockSync.estimate.map { $0.minDelay * 1000 },
                             offsetUncertaintyMs: clockSync.estimate.map { $0.uncertainty * 1000 },
                             source: mediaSource, problem: state == .unavailable ? mediaProblem : nil,
                             buffering: buffering.isActive && state != .ready && state != .unavailable)))
    }

    // MARK: Following the timeline

    private mutating func ping(now: Double) -> [Action] {
        if pings.count > 64 { pings.removeAll() }  // answers that will never come: start afresh
        let id = nextPingID
        nextPingID += 1
        pings[id] = now
        // Back to back until `burstCount` answers are in (a few more pings than that are in flight by
        // then, and the extra low-delay samples sharpen the first estimate), then the steady pace.
        // A burst never has more than `burstCount` pings unanswered: a server slow to answer (a join
        // storm) then gets the steady pace, not a burst that lasts as long as its answers are late.
        let inFlightCap = clockSync.isBursting && pings.count >= ClockSync.burstCount
        nextPing = now + (inFlightCap ? ClockSync.steadyInterval : clockSync.nextInterval)
        return [.send(.timePing(TimePing(id: id, t0: now)))]
    }

    /// Brings the player onto the current epoch once the clock is known.
    private mutating func applyTimeline(now: Double) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, !clockSync.isBursting, timeline.epoch > appliedEpoch else { return [] }
        let firstTime = appliedEpoch == 0
        appliedEpoch = timeline.epoch
        let instant = sync.local(fromParty: timeline.partyTime)
        if firstTime || timeline.jump {
            buffering.jumped()
            var at = instant
            var position = timeline.position
            if at < now + Self.seekLead * 0.5 {
                // Too late to preroll for that instant: land a little ahead instead, where the timeline will be.
                at = now + Self.seekLead
                position = timeline.position(at: sync.party(fromLocal: at))
            }
            awaitingSeek = (timeline.epoch, at)
            holdUntil = at
            controller.noteSeek(at: now)
            return [.seek(item: timeline.item, position: max(0, position), at: at, playing: timeline.playing,
                          rate: timeline.rate, epoch: timeline.epoch, catchUp: firstTime)]
        }
        // A player refilling its stream keeps its picture held; it rejoins with a seek when it can.
        if buffering.isActive, awaitingSeek == nil { return [] }
        return [.switchClock(MediaClock(position: timeline.position, host: instant, rate: timeline.rate,
                                        paused: !timeline.playing), epoch: timeline.epoch)]
    }

    private mutating func reconcile(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, let player, !player.prerolling,
              awaitingSeek == nil, appliedEpoch == timeline.epoch, now >= holdUntil else { return [] }
        let partyNow = sync.party(fromLocal: now)
        lastPartyNow = partyNow
        let expected = timeline.position(at: partyNow)
        let error = player.position - expected
        lastError = error
        if !timeline.playing {
            // Paused: the picture must be the paused one.
            guard partyNow >= timeline.partyTime, abs(error) > Self.pausedTolerance else { return [] }
            return reseek(timeline, sync: sync, now: now)
        }
        guard partyNow >= timeline.partyTime else { return [] }  // the epoch's instant is still ahead
        switch controller.update(error: error, drift: sync.drift, rate: timeline.rate, now: now) {
        case .reseek:
            return reseek(timeline, sync: sync, now: now)
        case .correct(let c):
            guard abs(c - correction) >= Self.correctionStep else { return [] }
            correction = c
            return [.setCorrection(c)]
        }
    }

    private mutating func reseek(_ timeline: Timeline, sync: ClockSync.Estimate, now: Double) -> [Action] {
        let at = now + Self.seekLead
        awaitingSeek = (timeline.epoch, at)
        holdUntil = at
        controller.noteSeek(at: now)
        return [.seek(item: timeline.item, position: max(0, timeline.position(at: sync.party(fromLocal: at))), at: at,
                      playing: timeline.playing, rate: timeline.rate, epoch: timeline.epoch, catchUp: true)]
    }

    private func demoted(_ info: ParticipantInfo) -> ParticipantInfo {
        var d = info
        d.role = .participant
        return d
    }
}

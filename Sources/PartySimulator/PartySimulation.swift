import DequeModule
import Foundation
import PlayerCore
import MediaTime
import PartyKit

/// A party server, a host and N participants in one process over simulated links, with real players
/// decoding a real file (optionally one participant's link goes down for 1.5 s and it reconnects). Time is simulated (true time is known), so each member's skew against the
/// reference timeline is measured exactly; the run need not take real time. Same seed, same result.
public final class PartySimulation {
    public struct Settings: Sendable {
        public var file: String
        public var participants: Int
        public var latency: Double
        public var jitter: Double
        public var loss: Double
        /// Clocks drift by up to ± this (ppm → fraction), drawn per member.
        public var drift: Double
        public var duration: Double
        public var seed: UInt64
        /// Skew is sampled this often (true seconds).
        public var sampleInterval = 0.01
        /// Take participant 1's link down for `outageSeconds`, four fifths of the way in (it reconnects).
        public var disconnect = false
        public init(file: String, participants: Int = 3, latency: Double = 0.05, jitter: Double = 0.02, loss: Double = 0.01,
                    drift: Double = 200e-6, duration: Double = 30, seed: UInt64 = 1) {
            self.file = file
            self.participants = participants
            self.latency = latency
            self.jitter = jitter
            self.loss = loss
            self.drift = drift
            self.duration = duration
            self.seed = seed
        }
    }

    final class Member {
        let name: String
        var core: ParticipantCore
        let clock: SimulatedClock
        var up: SimulatedLink
        var down: SimulatedLink
        let player: Player
        /// The member's current connection to the server (a new one after each reconnect).
        var connection: Int
        var linkUp = true
        var joinedAt: Double?
        var correction = 0.0
        var maxCorrection = 0.0
        var seeks = 0
        /// The one pending wake-up (an earlier one replaces it; stale wake events are ignored).
        var wakeAt = Double.infinity
        var skews: [Double] = []
        /// The true instant at which it applied each epoch.
        var applied: [Int: Double] = [:]

        init(name: String, core: ParticipantCore, clock: SimulatedClock, up: SimulatedLink, down: SimulatedLink,
             player: Player, connection: Int) {
            self.name = name
            self.core = core
            self.clock = clock
            self.up = up
            self.down = down
            self.player = player
            self.connection = connection
        }
    }

    enum Event {
        case toServer(connection: Int, text: String)
        case toMember(member: Int, connection: Int, text: String)
        case linkDown(member: Int)
        case linkUp(member: Int)
        case wake(member: Int)
        case start(member: Int)
        case command(Command.Action, Double?)
        case serverTick
        case sample
    }

    public let settings: Settings
    public internal(set) var samples: [SkewSample] = []
    public private(set) var log: [String] = []
    /// Time pings all members sent (what their clock sync costs the server).
    public private(set) var timePingsSent = 0
    private let world = SimulatedWorldTime()
    private var server = PartyServerCore()
    var members: [Member] = []
    private var queue: [(time: Double, seq: Int, event: Event)] = []
    private var seq = 0
    private var rng: SplitMix64
    var references: [Timeline] = []
    private let party = "sim-party"
    private let key = "sim-key"
    var joinerIndex: Int { members.count - 1 }
    private var nextConnection = 1000
    /// A participant's link goes down for this long, four fifths of the way in (it reconnects).
    static let outageSeconds = 1.5

    public init(settings: Settings) {
        precondition(settings.participants >= 1, "a simulated party needs at least one participant")
        precondition((0..<1).contains(settings.loss), "loss must be below 100 %: a link that loses everything never delivers")
        self.settings = settings
        rng = SplitMix64(seed: settings.seed)
    }

    /// Runs the scripted party and measures it.
    public func run() async throws -> SimulationReport {
        let count = settings.participants + 1
        for i in 0..<count {
            let name = i == 0 ? "host" : "p\(i)"
            let drift = settings.drift == 0 ? 0 : Double.random(in: -settings.drift...settings.drift, using: &rng)
            let clock = SimulatedClock(offset: Double.random(in: -1000...1000, using: &rng), drift: drift)
            let link = SimulatedLink(latency: settings.latency, jitter: settings.jitter, loss: settings.loss)
            let player = try await Player.open(settings.file, options: PlayerOptions(
                videoSink: NullVideoSink(), audioSink: nil, timeSource: SimulatedTimeSource(world: world, clock: clock)))
            // Every simulated member plays the same file: the item's identity is not checked here.
            let item = MediaItem(title: URL(fileURLWithPath: settings.file).lastPathComponent,
                                 identity: MediaIdentity(duration: player.duration ?? 0, streams: []))
            let create = i == 0 ? PartyConfig(items: [item]) : nil
            let core = ParticipantCore(hello: Hello(party: party, key: key, name: name, create: create))
            members.append(Member(name: name, core: core, clock: clock, up: link, down: link, player: player, connection: i + 1))
        }
        // The script: everyone but the last joins at once; the last joins a third of the way in.
        let d = settings.duration
        schedule(0, .start(member: 0))
        for i in 1..<count - 1 { schedule(0.1 * Double(i), .start(member: i)) }
        schedule(d * 0.3, .start(member: joinerIndex))
        schedule(1.0, .command(.play, nil))
        schedule(d * 0.45, .command(.pause, nil))
        schedule(d * 0.45 + 1, .command(.play, nil))
        schedule(d * 0.6, .command(.seek, 2.0))
        schedule(d * 0.75, .command(.rate, 1.25))
        schedule(d * 0.85, .command(.rate, 1.0))
        if settings.disconnect, count > 2 {
            schedule(d * 0.8, .linkDown(member: 1))
            schedule(d * 0.8 + Self.outageSeconds, .linkUp(member: 1))
        }
        schedule(0, .serverTick)
        schedule(0, .sample)

        while let (time, event) = popEvent(), time <= d {
            world.set(time)
            await handle(event, at: time)
        }
        for m in members { await m.player.close() }
        return report()
    }

    // MARK: Event loop

    private func schedule(_ time: Double, _ event: Event) {
        seq += 1
        let item = (time: time, seq: seq, event: event)
        let index = queue.firstIndex { ($0.time, $0.seq) > (time, seq) } ?? queue.count
        queue.insert(item, at: index)
    }

    private func popEvent() -> (Double, Event)? {
        guard !queue.isEmpty else { return nil }
        let first = queue.removeFirst()
        return (first.time, first.event)
    }

    private func handle(_ event: Event, at t: Double) async {
        switch event {
        case .start(let i):
            let m = members[i]
            m.joinedAt = t
            apply(server.connected(m.connection, now: t))
            await perform(m.core.start(now: m.clock.local(t)), member: i, at: t)
            wake(i, at: t + 0.01)
        case .toServer(let connection, let text):
            apply(server.received(connection, text: text, now: t))
        case .toMember(let i, let connection, let text):
            let m = members[i]
            guard m.linkUp, m.connection == connection, let message = try? PartyProtocol.decode(text) else { return }
            await perform(m.core.receive(message, now: m.clock.local(t)), member: i, at: t)
            // As an event loop re-arms its timer after input: a welcome starts the pings at once.
            wake(i, at: max(m.clock.trueTime(m.core.nextWake(after: m.clock.local(t))), t + 0.001))
        case .wake(let i):
            let m = members[i]
            guard t == m.wakeAt else { return }
            m.wakeAt = .infinity
            let local = m.clock.local(t)
            let snapshot = ParticipantCore.PlayerSnapshot(position: m.player.clock.position(at: local), prerolling: false)
            let tickActions = m.core.tick(now: local, player: snapshot)
            await perform(tickActions, member: i, at: t)
            if !m.core.ended { wake(i, at: max(m.clock.trueTime(m.core.nextWake(after: local)), t + 0.001)) }
        case .command(let action, let value):
            let host = members[0]
            await perform([host.core.request(action, value: value)], member: 0, at: t)
        case .linkDown(let i):
            let m = members[i]
            m.linkUp = false
            log.append(String(format: "%8.3f %@: link down", t, m.name))
            apply(server.disconnected(m.connection, now: t))
        case .linkUp(let i):
            let m = members[i]
            m.linkUp = true
            m.connection = nextConnection
            nextConnection += 1
            log.append(String(format: "%8.3f %@: link up, reconnecting", t, m.name))
            apply(server.connected(m.connection, now: t))
            await perform(m.core.reconnect(now: m.clock.local(t)), member: i, at: t)
            wake(i, at: t + 0.001)
        case .serverTick:
            apply(server.tick(now: t))
            schedule(t + 0.25, .serverTick)
        case .sample:
            sample(at: t)
            schedule(t + settings.sampleInterval, .sample)
        }
    }

    /// Wakes member `i` at `t`, unless it is already due to wake sooner.
    private func wake(_ i: Int, at t: Double) {
        guard t < members[i].wakeAt else { return }
        members[i].wakeAt = t
        schedule(t, .wake(member: i))
    }

    private func apply(_ outputs: [PartyServerCore.Output]) {
        let t = world.value
        for output in outputs {
            switch output {
            case .send(let connection, let message):
                if case .timeline(let timeline) = message, references.last?.epoch != timeline.epoch { references.append(timeline) }
                if case .welcome(let welcome) = message, references.isEmpty { references.append(welcome.timeline) }
                guard let i = members.firstIndex(where: { $0.connection == connection }), members[i].linkUp else { continue }
                let at = members[i].down.deliveryTime(sentAt: t, using: &rng)
                schedule(at, .toMember(member: i, connection: connection, text: PartyProtocol.encode(message)))
            case .close, .memberReported, .partyClosed: break
            case .log(let line): log.append(String(format: "%8.3f server: ", t) + line)
            }
        }
    }

    private func perform(_ actions: [ParticipantCore.Action], member i: Int, at t: Double) async {
        let m = members[i]
        for action in actions {
            switch action {
            case .send(let message):
                guard m.linkUp else { continue }
                if case .timePing = message { timePingsSent += 1 }
                let at = m.up.deliveryTime(sentAt: t, using: &rng)
                schedule(at, .toServer(connection: m.connection, text: PartyProtocol.encode(message)))
            case .seek(_, let position, let at, let playing, let rate, let epoch, let catchUp):
                m.seeks += 1
                log.append(String(format: "%8.3f %@: seek to %.3f s for %.3f (epoch %d)", t, m.name, position, m.clock.trueTime(at), epoch))
                log.append(String(format: "%8.3f %@: seek to %.3f s for %.3f (epoch %d)", t, m.name, position, m.clock.trueTime(at), epoch))
                m.player.setRate(rate)
                if playing {
                    await m.player.schedule(position: position, at: at)
                } else {
                    m.player.pause()
                    await m.player.seek(to: position)
                }
                if !catchUp { m.applied[epoch] = m.clock.trueTime(at) }
                await perform(m.core.seekCompleted(epoch: epoch, now: m.clock.local(t)), member: i, at: t)
            case .switchClock(let clock, let epoch):
                m.player.switchClock(to: clock)
                m.applied[epoch] = m.clock.trueTime(clock.anchorHost)
            case .setCorrection(let c):
                m.player.setCorrection(c)
                m.correction = c
                m.maxCorrection = max(m.maxCorrection, abs(c))
            case .notice(let notice):
                log.append(String(format: "%8.3f %@: ", t, m.name) + notice.text)
            case .disconnect(let reason):
                log.append(String(format: "%8.3f %@: disconnected: ", t, m.name) + reason)
            case .redirect(let node):
                log.append(String(format: "%8.3f %@: redirected to ", t, m.name) + node.description)  // one simulated server: never
            }
        }
    }
}

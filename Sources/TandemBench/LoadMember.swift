import TandemApp
import Logging
import PartyKit
import Synchronization
import WebSocketTransport

/// One simulated member of a `tandem bench load` run: a real WebSocket connection driving a real
/// ``ParticipantCore`` (hello, its clock-sync ping schedule, a status a second), with no player: every
/// seek it is given counts as done at once. A host also sends a command every few seconds.
///
/// Messages are handled on the connection's event loop as they are read (``handleInbound(phase:now:)``:
/// no task per member, no hop, no inbound queue that a busy client lets grow until it closes the
/// connection as a flood); everything else happens on the run's single ticker (``tick(now:phase:)``).
/// The core and the counters sit behind one lock.
package final class LoadMember: Sendable {
    package let party: LoadParty
    package let isHost: Bool
    package let name: String
    package let connection: WebSocketConnection
    private let state: Mutex<State>
    /// When ``tick(now:phase:)`` has something to do (the bits of a `Double`), read without the lock.
    private let wake = Atomic<UInt64>(0)

    private struct State: Sendable {
        package var core: ParticipantCore
        package var statistics = LoadStatistics()
        /// The first and last ping ids sent in the window: the pongs that count.
        package var windowPings: ClosedRange<Int>?
        package var nextCommand: Double?
        package var commandsSent = 0
        package var commandRound = 0
        package var closed = false
    }

    package init(party: LoadParty, isHost: Bool, name: String, hello: Hello, connection: WebSocketConnection) {
        self.party = party
        self.isHost = isHost
        self.name = name
        self.connection = connection
        state = Mutex(State(core: ParticipantCore(hello: hello)))
    }

    package var isJoined: Bool { state.withLock { $0.core.isJoined } }
    package var isClosed: Bool { state.withLock { $0.closed } }
    package var statistics: LoadStatistics { state.withLock { $0.statistics } }
    package var commandsSent: Int { state.withLock { $0.commandsSent } }
    package var nextWake: Double { Double(bitPattern: wake.load(ordering: .relaxed)) }

    /// Sends the hello.
    package func start(now: Double) {
        let actions = state.withLock { $0.core.start(now: now) }
        perform(actions, now: now, phase: .warmingUp)
    }

    /// A host's first command in the window comes at `at` (hosts are staggered over the interval).
    package func scheduleCommands(from at: Double) {
        state.withLock { $0.nextCommand = at }
    }

    /// From now on handles what the connection reads, on its event loop; `phase` says whether what
    /// arrives counts. Called before the hello, so nothing is read before it.
    package func handleInbound(phase: @escaping @Sendable () -> LoadPhase, now: @escaping @Sendable () -> Double) {
        connection.handleOnEventLoop { [self] inbound in received(inbound, phase: phase(), now: now) }
    }

    private func received(_ inbound: InboundMessage, phase current: LoadPhase, now: @Sendable () -> Double) {
        guard let message = try? PartyProtocol.decode(inbound.text) else { return }
        let actions = state.withLock { state -> [ParticipantCore.Action] in
            if current == .measuring { state.statistics.messagesReceived += 1 }
            switch message {
            case .timePong(let pong):
                if let window = state.windowPings, window.contains(pong.id) {
                    state.statistics.pongsReceived += 1
                    state.statistics.pongRoundTrips.append(inbound.receivedAt - pong.t0)
                }
            case .timeline(let timeline):
                if let sentAt = party.sentAt(ofEpoch: timeline.epoch) {
                    state.statistics.fanOutsReceived += 1
                    state.statistics.fanOuts.append(inbound.receivedAt - sentAt)
                }
            default:
                break
            }
            return state.core.receive(message, receivedAt: inbound.receivedAt, now: now())
        }
        perform(actions, now: now(), phase: current)
    }

    /// Does what is due at `now`: the core's pings, statuses and checks, and a host's command.
    package func tick(now: Double, phase: LoadPhase) {
        let (actions, command) = state.withLock { state -> ([ParticipantCore.Action], (ParticipantCore.Action, Int)?) in
            guard !state.closed else { return ([], nil) }
            let actions = state.core.tick(now: now, player: nil)
            guard phase == .measuring, let due = state.nextCommand, now >= due, let epoch = state.core.timeline?.epoch else {
                return (actions, nil)
            }
            state.nextCommand = due + LoadRun.commandInterval
            let next = Self.commandCycle(state.commandRound)
            state.commandRound += 1
            state.commandsSent += 1
            state.statistics.messagesSent += 1
            // The server answers a command with the next epoch (these members never stall, so
            // nothing else moves it). Recorded now, so the run counts it however soon it ends; the
            // instant is made exact as the command leaves.
            party.commandSent(causing: epoch + 1, at: now)
            return (actions, (state.core.request(next.action, value: next.value), epoch + 1))
        }
        if case let (.send(message), epoch)? = command {
            let text = PartyProtocol.encode(message)
            let party = self.party
            // Fan-outs count from the instant the command leaves the host.
            connection.send(stampedAt: { sentAt in
                party.commandSent(causing: epoch, at: sentAt)
                return text
            })
        }
        perform(actions, now: now, phase: phase)
    }

    /// Play, seek, pause, again and again: every kind of timeline the fan-out carries.
    package static func commandCycle(_ round: Int) -> (action: Command.Action, value: Double?) {
        switch round % 3 {
        case 0: (.play, nil)
        case 1: (.seek, Double(round % 60))
        default: (.pause, nil)
        }
    }

    /// Whether its time pings have backed off (``PingPacer``, either stage): its clock offset has converged.
    package var isBackingOff: Bool {
        state.withLock { $0.core.clockSync.pacer.interval > ClockSync.steadyInterval }
    }

    /// Records how its time pings are paced now (the window's end): backed off, and whether the clock
    /// drift it waits for is fitted; and whether its connection closed before the end.
    package func recordPacing() {
        let lost = connection.closeReason != nil
        state.withLock { state in
            if lost, !state.closed {
                state.statistics.disconnects += 1
                state.closed = true
            }
            state.statistics.backingOff = state.core.clockSync.pacer.interval > ClockSync.steadyInterval ? 1 : 0
            state.statistics.driftFitted = state.core.clockSync.driftFitted ? 1 : 0
        }
    }

    /// Stops counting this member as connected (the run is closing it).
    package func closing() {
        state.withLock { $0.closed = true }
    }

    private func perform(_ actions: [ParticipantCore.Action], now: Double, phase: LoadPhase) {
        var follow: [ParticipantCore.Action] = []
        for action in actions {
            switch action {
            case .send(.timePing(let ping)):
                state.withLock { state in
                    if phase == .measuring {
                        state.statistics.pingsSent += 1
                        state.statistics.messagesSent += 1
                        state.windowPings = (state.windowPings?.lowerBound ?? ping.id)...ping.id
                    }
                }
                // t0 is the instant the ping leaves, as a real member stamps it.
                connection.send(stampedAt: { t0 in PartyProtocol.encode(.timePing(TimePing(id: ping.id, t0: max(t0, ping.t0)))) })
            case .send(let message):
                if phase == .measuring { state.withLock { $0.statistics.messagesSent += 1 } }
                connection.send(PartyProtocol.encode(message))
            case .seek(_, _, _, _, _, let epoch, _):
                // No player: the seek is prerolled at once.
                follow += state.withLock { $0.core.seekCompleted(epoch: epoch, now: now) }
            case .switchClock, .setCorrection, .notice, .disconnect, .redirect:
                break
            }
        }
        if !follow.isEmpty { perform(follow, now: now, phase: phase) }
        // No player, so nothing to check against the timeline: only pings, statuses and commands.
        let next = state.withLock { state in
            min(state.core.nextWake(after: now, checking: false), state.nextCommand ?? .infinity)
        }
        wake.store(next.bitPattern, ordering: .relaxed)
    }
}

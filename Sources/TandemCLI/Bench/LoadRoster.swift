import Synchronization

/// Where a `tandem bench load` run is: members count what they measure only while it is `.measuring`.
enum LoadPhase: Int, Sendable {
    case warmingUp, measuring, draining
}

/// Every member of a `tandem bench load` run and the run's phase, shared by the run, the ticker and the
/// members' reading tasks.
final class LoadRoster: Sendable {
    private let members = Mutex<[LoadMember]>([])
    private let currentPhase = Atomic<Int>(LoadPhase.warmingUp.rawValue)

    var phase: LoadPhase {
        get { LoadPhase(rawValue: currentPhase.load(ordering: .relaxed)) ?? .draining }
        set { currentPhase.store(newValue.rawValue, ordering: .relaxed) }
    }

    func add(_ joined: [LoadMember]) {
        members.withLock { $0 += joined }
    }

    var all: [LoadMember] { members.withLock { $0 } }

    var allJoined: Bool { members.withLock { $0.allSatisfy(\.isJoined) } }

    /// Ticks every member with something due at `now` (without copying the list: this runs every few ms).
    func tick(now: Double) {
        let phase = self.phase
        members.withLock { members in
            for member in members where member.nextWake <= now { member.tick(now: now, phase: phase) }
        }
    }
}

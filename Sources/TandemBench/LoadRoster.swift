import TandemApp
import Synchronization

/// Where a `tandem bench load` run is: members count what they measure only while it is `.measuring`.
package enum LoadPhase: Int, Sendable {
    case warmingUp, measuring, draining
}

/// Every member of a `tandem bench load` run and the run's phase, shared by the run, the ticker and the
/// members' reading tasks.
package final class LoadRoster: Sendable {
    private let members = Mutex<[LoadMember]>([])
    private let currentPhase = Atomic<Int>(LoadPhase.warmingUp.rawValue)

    package var phase: LoadPhase {
        get { LoadPhase(rawValue: currentPhase.load(ordering: .relaxed)) ?? .draining }
        set { currentPhase.store(newValue.rawValue, ordering: .relaxed) }
    }

    package func add(_ joined: [LoadMember]) {
        members.withLock { $0 += joined }
    }

    package var all: [LoadMember] { members.withLock { $0 } }

    package var allJoined: Bool { members.withLock { $0.allSatisfy(\.isJoined) } }

    /// Ticks every member with something due at `now` (without copying the list: this runs every few ms).
    package func tick(now: Double) {
        let phase = self.phase
        members.withLock { members in
            for member in members where member.nextWake <= now { member.tick(now: now, phase: phase) }
        }
    }
}

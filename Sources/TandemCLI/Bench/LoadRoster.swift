import HeapModule
import Synchronization

/// Where a `tandem bench load` run is: members count what they measure only while it is `.measuring`.
enum LoadPhase: Int, Sendable {
    case warmingUp, measuring, draining
}

/// Every member of a `tandem bench load` run, the run's phase, and when each member next has something
/// to do, shared by the run, the ticker and the members' event loops.
///
/// Wake-ups are kept in a heap by time: the ticker takes only what is due, so its cost follows the
/// members' pings and statuses, not their number (a scan of 10,000 members every few milliseconds
/// took a tenth of a core of the client that shares the machine with the server it measures).
final class LoadRoster: Sendable {
    /// A member's wake-up. A member adds one whenever its next wake changes; one it no longer wants
    /// (its wake moved) is skipped when due.
    private struct Wake: Comparable {
        var at: Double
        var member: LoadMember
        static func < (a: Wake, b: Wake) -> Bool { a.at < b.at }
        static func == (a: Wake, b: Wake) -> Bool { a.at == b.at && a.member === b.member }
    }

    private let members = Mutex<[LoadMember]>([])
    private let wakes = Mutex<Heap<Wake>>(Heap())
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

    /// `member` next has something to do at `at`.
    func wake(_ member: LoadMember, at: Double) {
        guard at.isFinite else { return }
        wakes.withLock { $0.insert(Wake(at: at, member: member)) }
    }

    /// Ticks every member with something due at `now`.
    func tick(now: Double) {
        let phase = self.phase
        let due = wakes.withLock { heap -> [LoadMember] in
            var due: [LoadMember] = []
            while let first = heap.min, first.at <= now { due.append(heap.removeMin().member) }
            return due
        }
        for member in due where member.nextWake <= now { member.tick(now: now, phase: phase) }
    }
}

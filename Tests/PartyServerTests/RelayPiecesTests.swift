import PartyKit
import Testing
@testable import PartyServer

/// The converted pieces' state machine, event by event (waiters are plain numbers here).
@Suite struct RelayPiecesTests {
    typealias Machine = RelayPieces<Int>
    static let key = Machine.Key(party: "p", item: 0, identity: "60", request: .segment(3))

    /// The fetches and the answers (waiters → bytes or failure) of some actions.
    static func fetches(_ actions: [Machine.Action]) -> [RelayWebFetch] {
        actions.compactMap { if case .fetch(_, let fetch) = $0 { fetch } else { nil } }
    }
    static func answers(_ actions: [Machine.Action]) -> [([Int], Result<[UInt8], RelayPieceFailure>)] {
        actions.compactMap { if case .answer(let waiters, let result) = $0 { (waiters, result) } else { nil } }
    }

    @Test func aPieceIsAskedOnceAssembledInOrderAndKept() {
        var machine = Machine(limit: 1 << 20)
        #expect(Self.fetches(machine.wanted(Self.key, by: 1, id: 10)) == [RelayWebFetch(id: 10, item: 0, piece: "3.m4s")])
        #expect(machine.wanted(Self.key, by: 2, id: 11).isEmpty, "on its way: no second fetch")
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0) }
        var answered: [([Int], Result<[UInt8], RelayPieceFailure>)] = []
        for frame in RelayProtocol.pieceFrames(id: 10, bytes: bytes) {
            guard case .piece(let part) = RelayProtocol.decodeFrame(frame) else { return }
            #expect(machine.received(part, party: "other").isEmpty, "another party's frame is dropped")
            answered += Self.answers(machine.received(part, party: "p"))
        }
        #expect(answered.count == 1 && answered.first?.0 == [1, 2] && (try? answered.first?.1.get()) == bytes)
        // Kept: the next guest is answered at once, nothing asked.
        let again = machine.wanted(Self.key, by: 3, id: 12)
        #expect(Self.fetches(again).isEmpty && Self.answers(again).first?.0 == [3])
        #expect(machine.keptCount == 1)
    }

    @Test func failuresReachEveryWaiterAndNothingIsKept() {
        var machine = Machine(limit: 1 << 20)
        _ = machine.wanted(Self.key, by: 1, id: 1)
        let unavailable = Self.answers(machine.failed(RelayFailed(id: 1, reason: "no segment 3", unavailable: true), party: "p"))
        #expect(unavailable.first?.0 == [1])
        if case .failure(let failure) = unavailable.first?.1 { #expect(failure == .unavailable("no segment 3")) }

        // Out of order: the waiters fail, the frame after it is dropped.
        _ = machine.wanted(Self.key, by: 2, id: 2)
        let wrong = Self.answers(machine.received(RelayPieceChunk(id: 2, offset: 5, total: 10, data: [1]), party: "p"))
        #expect(wrong.first?.0 == [2])
        #expect(machine.received(RelayPieceChunk(id: 2, offset: 0, total: 1, data: [1]), party: "p").isEmpty)

        // The host's relay connection closes mid-piece.
        _ = machine.wanted(Self.key, by: 3, id: 3)
        _ = machine.received(RelayPieceChunk(id: 3, offset: 0, total: 10, data: [1, 2]), party: "p")
        let closed = Self.answers(machine.closed(party: "p", reason: "gone"))
        #expect(closed.first?.0 == [3])
        if case .failure(let failure) = closed.first?.1 { #expect(failure == .relay("gone")) }
        #expect(!machine.isInFlight(3, party: "p") && machine.keptCount == 0)

        // A host that never sends it: the waiters fail when it expires, and a late frame is dropped.
        _ = machine.wanted(Self.key, by: 4, id: 4)
        let expired = Self.answers(machine.expired(4, party: "p", reason: "late"))
        #expect(expired.first?.0 == [4])
        if case .failure(let failure) = expired.first?.1 { #expect(failure == .relay("late")) }
        #expect(machine.received(RelayPieceChunk(id: 4, offset: 0, total: 1, data: [1]), party: "p").isEmpty)
        #expect(machine.expired(4, party: "p", reason: "again").isEmpty && machine.keptCount == 0)
    }

    @Test func theOldestPiecesGoFirstPastTheLimit() {
        var machine = Machine(limit: 100)
        for k in 0..<3 {
            let key = Machine.Key(party: "p", item: 0, identity: "60", request: .segment(k))
            _ = machine.wanted(key, by: k, id: k)
            _ = machine.received(RelayPieceChunk(id: k, offset: 0, total: 60, data: [UInt8](repeating: 1, count: 60)), party: "p")
        }
        #expect(machine.keptCount == 1)
        #expect(Self.fetches(machine.wanted(Machine.Key(party: "p", item: 0, identity: "60", request: .segment(0)), by: 9, id: 9)).count == 1)
    }

    /// A host is asked a few pieces at once; the rest wait their turn and go out as pieces come in.
    @Test func aHostIsAskedAFewPiecesAtOnce() {
        var machine = Machine(limit: 1 << 20)
        let limit = Machine.maxInFlightPerParty
        var asked: [RelayWebFetch] = []
        for k in 0...limit {
            asked += Self.fetches(machine.wanted(Machine.Key(party: "p", item: 0, identity: "60", request: .segment(k)), by: k, id: 100 + k))
        }
        #expect(asked.map(\.id) == Array(100..<(100 + limit)), "one waits its turn")
        // Another party's host is not held by this one's.
        #expect(Self.fetches(machine.wanted(Machine.Key(party: "q", item: 0, identity: "60", request: .index), by: 50, id: 50)).count == 1)
        let done = machine.received(RelayPieceChunk(id: 100, offset: 0, total: 1, data: [9]), party: "p")
        #expect(Self.fetches(done).map(\.id) == [100 + limit], "its turn came")
        // The host goes: the pieces on their way fail, and so does one still waiting.
        _ = machine.wanted(Machine.Key(party: "p", item: 0, identity: "60", request: .segment(99)), by: 99, id: 199)
        let closed = Self.answers(machine.closed(party: "p", reason: "gone"))
        #expect(closed.flatMap(\.0).sorted() == Array(1...limit) + [99])
    }
}

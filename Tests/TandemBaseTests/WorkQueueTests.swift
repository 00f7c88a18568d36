import TandemBase
import Testing

/// The one queue of a player's commands: order, coalescing by the owner's rule, nothing lost,
/// finish (drain) and close (drop). No test sleeps: a consumer that must be held is held by a latch.
@Suite(.timeLimit(.minutes(1))) struct WorkQueueTests {
    enum Command: Sendable, Equatable {
        case seek(Int), play, pause, clock(Int)

        var isSeek: Bool { if case .seek = self { true } else { false } }
        var isClock: Bool { if case .clock = self { true } else { false } }
    }

    /// A seek supersedes the seeks and clock switches still queued (not the other way round), as
    /// a party member's show does.
    private func commands() -> WorkQueue<Command> {
        WorkQueue(supersedes: { new, queued in new.isSeek && (queued.isSeek || queued.isClock) })
    }

    /// Takes every item until the queue ends.
    private func drain<W>(_ queue: WorkQueue<W>) async -> [W] {
        var taken: [W] = []
        while let work = await queue.next() { taken.append(work) }
        return taken
    }

    @Test func everyItemComesOnceInTheOrderSubmitted() async {
        let queue = WorkQueue<Int>()
        // Half queued before the consumer starts (a long queue taken from the front), half while it runs.
        for n in 0..<5000 { #expect(queue.submit(n) == []) }
        let consumer = Task { await drain(queue) }
        for n in 5000..<10000 { #expect(queue.submit(n) == []) }
        queue.finish()
        #expect(await consumer.value == Array(0..<10000))
    }

    @Test func concurrentSubmittersLoseNothingAndKeepTheirOwnOrder() async {
        let queue = WorkQueue<Int>()
        let consumer = Task { await drain(queue) }
        await withTaskGroup(of: Void.self) { group in
            for submitter in 0..<4 {
                group.addTask { for n in 0..<1000 { queue.submit(submitter * 1000 + n) } }
            }
        }
        queue.finish()
        let taken = await consumer.value
        #expect(taken.sorted() == Array(0..<4000))
        for submitter in 0..<4 {
            let own = taken.filter { $0 / 1000 == submitter }
            #expect(own == own.sorted())
        }
    }

    @Test func aNewSeekDropsTheQueuedSeeksAndKeepsTheRestInOrder() async {
        let queue = commands()
        #expect(queue.submit(.seek(1)) == [])
        #expect(queue.submit(.play) == [])
        #expect(queue.submit(.seek(2)) == [.seek(1)])
        #expect(queue.submit(.pause) == [])
        #expect(queue.submit(.clock(1)) == [])
        #expect(queue.submit(.seek(3)) == [.seek(2), .clock(1)])
        #expect(queue.submit(.clock(2)) == [])  // a clock switch supersedes nothing
        #expect(queue.count() == 4)
        #expect(queue.count(where: \.isSeek) == 1)
        queue.finish()
        #expect(await drain(queue) == [.play, .pause, .seek(3), .clock(2)])
    }

    @Test func coalescingAfterSomeItemsWereTakenKeepsTheOrder() async {
        let queue = commands()
        queue.submit(.play)
        queue.submit(.seek(1))
        queue.submit(.pause)
        #expect(await queue.next() == .play)
        #expect(queue.submit(.seek(2)) == [.seek(1)])
        queue.submit(.play)
        queue.finish()
        #expect(await drain(queue) == [.pause, .seek(2), .play])
    }

    @Test func theItemUnderWayIsNeverDropped() async throws {
        let queue = commands()
        let gate = Awaitable(false)
        let taken = Awaitable<[Command]>([])
        let consumer = Task {
            while let work = await queue.next() {
                taken.withLock { $0.append(work) }
                _ = try? await gate.wait(until: { $0 })
            }
        }
        queue.submit(.seek(1))
        try await taken.wait(until: { $0 == [.seek(1)] })
        // seek 1 is under way: a newer seek queues behind it and drops nothing.
        #expect(queue.submit(.seek(2)) == [])
        #expect(queue.count(where: \.isSeek) == 2)
        #expect(!queue.isIdle)
        gate.withLock { $0 = true }
        queue.finish()
        await consumer.value
        #expect(taken.value == [.seek(1), .seek(2)])
    }

    @Test func closeDropsWhatIsQueuedAndLetsTheItemUnderWayFinish() async throws {
        let queue = WorkQueue<Int>()
        let gate = Awaitable(false)
        let taken = Awaitable<[Int]>([])
        let consumer = Task {
            while let work = await queue.next() {
                taken.withLock { $0.append(work) }
                _ = try? await gate.wait(until: { $0 })
            }
            return taken.value
        }
        queue.submit(1)
        try await taken.wait(until: { $0 == [1] })
        queue.submit(2)
        queue.submit(3)
        #expect(queue.close() == [2, 3])
        #expect(queue.isFinished)
        #expect(queue.submit(4) == nil)
        gate.withLock { $0 = true }
        #expect(await consumer.value == [1])
        #expect(queue.count() == 0)
    }

    @Test func finishStillHandsOverWhatIsQueued() async {
        let queue = WorkQueue<Int>()
        queue.submit(1)
        queue.submit(2)
        queue.finish()
        #expect(queue.submit(3) == nil)
        #expect(await drain(queue) == [1, 2])
        #expect(await queue.next() == nil)
    }

    @Test func idleMeansNothingQueuedNorUnderWay() async {
        let queue = WorkQueue<Int>()
        #expect(queue.isIdle)
        queue.submit(1)
        #expect(!queue.isIdle)
        #expect(await queue.next() == 1)
        #expect(!queue.isIdle)  // under way until the consumer asks for the next
        #expect(queue.count() == 1)
        queue.finish()
        #expect(await queue.next() == nil)
        #expect(!queue.isIdle)  // finished: takes nothing
        #expect(queue.count() == 0)
    }

    @Test func aCancelledConsumerGetsNil() async {
        let queue = WorkQueue<Int>()
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await queue.next()
        }
        #expect(await consumer.value == nil)
    }
}

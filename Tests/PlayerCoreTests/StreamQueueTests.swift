import Foundation
import PlayerCore
import Testing
import TestSupport

@Suite struct StreamQueueTests {
    @Test func keepsOrderAndFillStatistics() {
        let q = StreamQueue<Int>()
        q.put(.payload(1), serial: 0, bytes: 10, duration: 0.5)
        q.put(.payload(2), serial: 0, bytes: 20, duration: 0.25)
        #expect(q.fill.count == 2 && q.fill.bytes == 30 && q.fill.duration == 0.75)
        guard case .payload(let first)? = q.get(timeout: 0)?.entry else { Issue.record("empty"); return }
        #expect(first == 1)
        #expect(q.fill.bytes == 20)
    }

    /// An input that cannot seek: a seek's generation keeps what was queued, now of it.
    @Test func carryOverKeepsTheEntriesInTheNewGeneration() {
        let q = StreamQueue<Int>()
        q.put(.payload(1), serial: 0, bytes: 10)
        q.put(.payload(2), serial: 0, bytes: 10)
        q.carryOver(serial: 1)
        #expect(q.fill.count == 2 && q.fill.bytes == 20 && q.continues(1) && !q.continues(0))
        q.put(.payload(3), serial: 0)  // a producer still on the old generation
        q.put(.payload(4), serial: 1)
        let got = (0..<3).compactMap { _ -> (Int, Int)? in
            guard let item = q.get(timeout: 0), case .payload(let value) = item.entry else { return nil }
            return (value, item.serial)
        }
        #expect(got.map(\.0) == [1, 2, 4] && got.allSatisfy { $0.1 == 1 })
    }

    @Test func flushDropsEverythingAndStaleProducersNeverEnter() {
        let q = StreamQueue<Int>()
        q.put(.payload(1), serial: 0)
        q.flush(serial: 1)
        #expect(q.fill.count == 0)
        q.put(.payload(2), serial: 0)  // a producer still on the old generation
        #expect(q.fill.count == 0)
        q.put(.payload(3), serial: 1)
        #expect(q.get(timeout: 0)?.serial == 1)
    }

    @Test func putBlocksWhenFullUntilTaken() async {
        let q = StreamQueue<Int>(capacity: 1)
        q.put(.payload(1), serial: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            q.put(.payload(2), serial: 0)
            done.signal()
        }
        #expect(await onOwnThread { done.wait(timeout: .now() + 0.1) } == .timedOut)  // full: the producer waits
        _ = q.get()
        #expect(await onOwnThread { done.wait(timeout: .now() + 5) } == .success)
    }

    @Test func flushReleasesAProducerBlockedOnAFullQueue() async {
        let q = StreamQueue<Int>(capacity: 1)
        q.put(.payload(1), serial: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            q.put(.payload(2), serial: 0)
            done.signal()
        }
        q.flush(serial: 1)
        #expect(await onOwnThread { done.wait(timeout: .now() + 5) } == .success)
        #expect(q.fill.count == 0)  // the stale item was dropped, not queued
    }

    @Test func abortWakesBlockedConsumersAndProducers() async {
        let empty = StreamQueue<Int>()
        let full = StreamQueue<Int>(capacity: 1)
        full.put(.payload(0), serial: 0)
        let woke = DispatchSemaphore(value: 0)
        Thread.detachNewThread { _ = empty.get(); woke.signal() }
        Thread.detachNewThread { _ = full.put(.payload(1), serial: 0); woke.signal() }
        empty.abort()
        full.abort()
        #expect(await onOwnThread { woke.wait(timeout: .now() + 5) } == .success)
        #expect(await onOwnThread { woke.wait(timeout: .now() + 5) } == .success)
        #expect(full.put(.payload(2), serial: 0) == false)
    }

    /// The presenter peeks, then a seek flushes and the accurate-seek picture arrives before the
    /// presenter pops: that pop must not take the new picture.
    @Test func popTakesOnlyTheEntryThatWasPeeked() throws {
        let q = StreamQueue<Int>()
        q.put(.payload(1), serial: 0, bytes: 10)
        let peeked = try #require(q.peek())
        q.flush(serial: 1)
        q.put(.payload(2), serial: 1, bytes: 20)
        #expect(q.pop(expecting: peeked) == false)
        let head = try #require(q.peek())
        guard case .payload(let value) = head.entry else { Issue.record("end marker"); return }
        #expect(value == 2 && head.serial == 1)
        #expect(q.fill.count == 1 && q.fill.bytes == 20)
        #expect(q.pop(expecting: head))
        #expect(q.fill.count == 0 && q.fill.bytes == 0)
    }

    /// Same payload and serial, yet another put: still not the entry that was looked at.
    @Test func popTellsEqualEntriesApart() throws {
        let q = StreamQueue<Int>()
        q.put(.payload(7), serial: 0)
        let peeked = try #require(q.peek())
        q.flush(serial: 0)
        q.put(.payload(7), serial: 0)
        #expect(q.pop(expecting: peeked) == false)
        #expect(q.fill.count == 1)
    }
}

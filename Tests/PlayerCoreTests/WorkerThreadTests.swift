import Foundation
import Synchronization
import Testing
import TestSupport

@testable import PlayerCore

@Suite struct WorkerThreadTests {
    /// The name is visible from the thread (Linux takes 15 bytes at most).
    @Test func theThreadCarriesItsName() async {
        let seen = Mutex<String?>(nil)
        let thread = WorkerThread(name: "tandem.present some-file.mp4") { seen.withLock { $0 = Thread.current.name } }
        await onOwnThread { thread.join() }  // joining blocks: not on the cooperative pool
        #expect(seen.withLock { $0 } == "tandem.present ")
        #expect(!thread.isRunning)
    }

    @Test func namesAreCutBetweenCharacters() {
        #expect(WorkerThread.threadName("short") == "short")
        #expect(WorkerThread.threadName("tandem.vdec été.mp4") == "tandem.vdec ét")  // "é" is two bytes
        #expect(WorkerThread.threadName("tandem.vdec été.mp4").utf8.count <= WorkerThread.maxNameBytes)
    }
}

import Foundation

/// A serial executor that runs every job on one dedicated thread, for ever: SDL's video, event and
/// OpenGL calls must all come from the thread that started them.
///
/// (The main actor cannot serve on Linux: an async `main` ends in libdispatch's `dispatch_main()`,
/// which exits the main thread and lets pool threads drain the main queue, so main-actor code runs
/// on some worker, not necessarily the same one each time.)
final class WindowThreadExecutor: SerialExecutor, @unchecked Sendable {
    /// Guards `jobs` (hence `@unchecked Sendable`).
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private let started = DispatchSemaphore(value: 0)
    /// Set once by the thread before it runs anything, read only after `started` is signalled.
    private var thread: pthread_t?

    init(name: String) {
        let worker = Thread { [self] in
            thread = pthread_self()
            started.signal()
            run()
        }
        worker.name = name
        worker.start()
        started.wait()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    func checkIsolated() {
        precondition(isCurrent, "not on the window thread")
    }

    /// True when called on the executor's thread.
    var isCurrent: Bool { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }

    private func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import MediaTime
import Synchronization

extension BenchCommand {
    /// `tandem bench burn`: CPU-bound busy loops, so that a measurement runs on a loaded machine.
    struct Burn: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs THREADS CPU-bound busy loops (no system calls but a clock read now and then) for SECONDS.")

        @Option(help: "How long to burn.") var seconds: Double
        @Option(help: "How many busy loops (threads).") var threads = 1

        /// Iterations between two clock reads: about a millisecond of arithmetic, so the loops stop
        /// on time without the clock read being a noticeable part of the work.
        static let iterationsPerClockRead = 1 << 20

        func validate() throws {
            guard seconds.isFinite, seconds >= 0 else { throw ValidationError("--seconds must be 0 or more") }
            guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        }

        func run() throws {
            let clock = MonotonicTimeSource()
            let deadline = clock.now() + seconds
            let done = DispatchGroup()
            let total = LockedSum()
            for index in 0..<threads {
                done.enter()
                let thread = Thread {
                    total.add(Self.spin(seed: UInt64(index) + 1, until: deadline, clock: clock))
                    done.leave()
                }
                thread.name = "burn \(index)"
                thread.start()
            }
            done.wait()
            // Printing the loops' result keeps the optimiser from removing them.
            print("burned \(threads) × \(seconds) s (checksum \(total.value % 1000))")
        }

        /// Xorshift steps until `deadline`; returns the last state.
        static func spin(seed: UInt64, until deadline: Double, clock: MonotonicTimeSource) -> UInt64 {
            var x = seed
            repeat {
                for _ in 0..<iterationsPerClockRead {
                    x ^= x << 13
                    x ^= x >> 7
                    x ^= x << 17
                }
            } while clock.now() < deadline
            return x
        }
    }
}

/// The loops' results, added from their threads.
private final class LockedSum: Sendable {
    private let sum = Mutex<UInt64>(0)
    func add(_ x: UInt64) { sum.withLock { $0 &+= x } }
    var value: UInt64 { sum.withLock { $0 } }
}

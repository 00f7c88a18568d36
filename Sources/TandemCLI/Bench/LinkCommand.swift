import TandemBase
import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import NIOPosix

extension BenchCommand {
    /// `tandem bench link`: a TCP proxy that adds latency with jitter each way, in order, so that a
    /// party member's connection can be made to look like a real network path on loopback.
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A TCP proxy adding LATENCY ± JITTER ms each way to every chunk, never reordering (a jittery path).")

        @Option(help: "Address to listen on (port 0: any free port; the bound one is printed).") var listen: HostPort
        @Option(help: "Address to forward each connection to.") var to: HostPort
        @Option(help: "Mean one-way delay in ms.") var latency: Double
        @Option(help: "Largest difference from the mean in ms, either way (delays are uniform in between).") var jitter = 0.0
        @Option(help: "Seed of the delays (default: a random one, printed).") var seed: UInt64?
        @Option(help: "Stop after this many seconds.") var duration: Double?

        func validate() throws {
            guard latency.isFinite, latency >= 0 else { throw ValidationError("--latency must be 0 or more") }
            guard jitter.isFinite, (0...latency).contains(jitter) else {
                throw ValidationError("--jitter must be within 0…latency (no negative delays)")
            }
        }

        func run() async throws {
            let seed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
            // One thread: both sides of every connection on one event loop, and the link is not
            // what should compete for this machine's cores.
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let proxy = LinkProxy(target: to, latency: latency / 1000, jitter: jitter / 1000, seed: seed)
            let port: Int
            do {
                port = try await proxy.start(listening: listen, group: group)
            } catch {
                printError("cannot listen on \(listen): \(error)")
                try? await group.shutdownGracefully()
                throw ExitCode.failure
            }
            FileHandleOutput.standardOutput.write("listening on \(HostPort(host: listen.host, port: port))\n")
            FileHandleOutput.standardError.write(String(
                format: "link → %@: %.3g ± %.3g ms each way, in order, seed %llu\n", to.description, latency, jitter, seed))
            await waitForSignalOrTimeout(duration)
            await proxy.stop()
            try? await group.shutdownGracefully()
            // What crossed the link, for measurements of traffic (a host's upload, say).
            FileHandleOutput.standardOutput.write(
                "bytes: \(proxy.bytesToTarget.value) to \(to), \(proxy.bytesFromTarget.value) back\n")
        }
    }
}

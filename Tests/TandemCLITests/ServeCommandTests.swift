import Foundation
import Glibc
import Logging
import NIOPosix
import PartyKit
import Testing
import WebSocketTransport

/// `tandem serve` (the built binary) as its service group runs it: a part that cannot start is one
/// line and exit 1; `--duration` ends it by itself with exit 0; a second Ctrl-C ends a drain at once.
@Suite(.serialized) struct ServeCommandTests {
    /// Failure bound only: a run still alive this long after it should have ended is killed.
    static let bound = 60.0

    /// `tandem serve --insecure --listen 127.0.0.1:0 …` with its standard output read line by line and
    /// its standard error in a pipe; killed at the end of the test (or after ``bound`` past `deadline`).
    final class Serve: @unchecked Sendable {
        let process = Process()
        let lines: SyncplayServeDrainTests.LineReader
        let errors = Pipe()
        let folder: URL
        private let guardKill: DispatchWorkItem

        init(_ arguments: [String]) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            process.executableURL = try URLOpenErrorTests.binary()
            process.arguments = ["serve", "--insecure", "--listen", "127.0.0.1:0", "--cache-size", "0", "--state-dir", folder.path] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = errors
            lines = SyncplayServeDrainTests.LineReader(output.fileHandleForReading)
            try process.run()
            let process = process
            guardKill = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            DispatchQueue.global().asyncAfter(deadline: .now() + ServeCommandTests.bound, execute: guardKill)
        }

        /// Waits for the end; false when it was still running at the bound (then killed).
        func waitForExit() -> Bool {
            process.waitUntilExit()
            guardKill.cancel()
            return !(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        }

        /// Tandem's own lines on standard error (`tandem: …`; log lines are not), the `--insecure` warning left out.
        var errorLines: [String] {
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
                .filter { $0.hasPrefix("tandem: ") && !$0.hasPrefix("tandem: WARNING: --insecure") }.map(String.init)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            guardKill.cancel()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func anAdminPortTakenIsOneClearLineAndExitOne() async throws {
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let taken = try #require(holder.localAddress?.port)
        let serve = try Serve(["--admin-listen", "127.0.0.1:\(taken)", "--syncplay", "127.0.0.1:0"])
        defer { serve.stop() }
        // (Values, not the process, in the expectations: a failed one reflects what it names.)
        let errors = serve.errorLines
        let ended = serve.waitForExit()
        try await holder.close()
        #expect(ended, "the group did not end")
        let (reason, status) = (serve.process.terminationReason, serve.process.terminationStatus)
        #expect(reason == .exit && status == 1, "\(reason) \(status)")
        #expect(errors.count == 1 && errors.first?.hasPrefix("tandem: cannot listen on 127.0.0.1:\(taken) (admin): ") == true, "\(errors)")
        // The party port listened first; the gateway, after the admin port, never did.
        let printed = [serve.lines.line(), serve.lines.line()]
        #expect(printed[0]?.hasPrefix("listening on 127.0.0.1:") == true && printed[1] == nil, "\(printed)")
    }

    @Test func aDurationEndsServeByItselfWithStatusZero() throws {
        let serve = try Serve(["--duration", "0.5"])
        defer { serve.stop() }
        let listening = serve.lines.line()
        #expect(listening?.hasPrefix("listening on 127.0.0.1:") == true, "\(String(describing: listening))")
        let ended = serve.waitForExit()
        #expect(ended, "--duration did not end it")
        let (reason, status, errors) = (serve.process.terminationReason, serve.process.terminationStatus, serve.errorLines)
        #expect(reason == .exit && status == 0, "\(reason) \(status)")
        #expect(errors.isEmpty, "\(errors)")
    }

    /// The first Ctrl-C drains (a member who stays keeps it draining for --drain-seconds); the second
    /// ends the process at once, by SIGINT, as a second Ctrl-C ends headless `play`'s quit.
    @Test func aSecondInterruptEndsADrainingServe() async throws {
        let serve = try Serve(["--drain-seconds", "120"])
        defer { serve.stop() }
        let listening = serve.lines.line(startingWith: "listening on 127.0.0.1:")
        let port = try #require(listening.flatMap { Int($0.split(separator: ":").last ?? "") })
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let host = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: logger)
        defer { host.close() }
        let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 1, duration: 60, streams: ["video"]))
        host.send(PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "Hana", create: PartyConfig(items: [item])))))
        var inbound = host.inbound.makeAsyncIterator()
        #expect(await inbound.next()?.text.contains("welcome") == true)

        serve.process.interrupt()
        var told = false
        while let message = await inbound.next() {
            if message.text.contains("serverShutdown") { told = true; break }
        }
        #expect(told, "the first Ctrl-C began the drain")
        let draining = serve.process.isRunning
        #expect(draining, "draining: the host is still in")

        serve.process.interrupt()
        let ended = serve.waitForExit()
        #expect(ended, "the second Ctrl-C did not end it")
        let (reason, status) = (serve.process.terminationReason, serve.process.terminationStatus)
        #expect(reason == .uncaughtSignal && status == SIGINT, "\(reason) \(status)")
    }
}

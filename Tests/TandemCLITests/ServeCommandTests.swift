import Foundation
import Glibc
import Logging
import NIOPosix
import PartyKit
import Testing
import TestSupport
import WebSocketTransport

/// `tandem serve` (the built binary) as its service group runs it: a part that cannot start is one
/// line and exit 1; `--duration` ends it by itself with exit 0; a second Ctrl-C ends a drain at once.
@Suite(.serialized) struct ServeCommandTests {
    /// Failure bound only: a run still alive this long after it should have ended is killed.
    static let bound = 60.0

    /// `tandem serve --insecure --listen 127.0.0.1:0 …` in a state folder of its own; both outputs captured.
    static func serve(_ arguments: [String]) throws -> (ChildProcess, TemporaryFolder) {
        let folder = try TemporaryFolder("tandem-serve")
        let child = try ChildProcess.tandem(["serve", "--insecure", "--listen", "127.0.0.1:0", "--cache-size", "0",
                                             "--state-dir", folder.path] + arguments)
        return (child, folder)
    }

    /// Tandem's own lines on standard error (`tandem: …`; log lines are not), the `--insecure` warning left out.
    static func errorLines(_ child: ChildProcess) -> [String] {
        child.standardError.split(separator: "\n")
            .filter { $0.hasPrefix("tandem: ") && !$0.hasPrefix("tandem: WARNING: --insecure") }.map(String.init)
    }

    /// The lines on standard output.
    static func outputLines(_ child: ChildProcess) -> [String] {
        child.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func anAdminPortTakenIsOneClearLineAndExitOne() async throws {
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let taken = try #require(holder.localAddress?.port)
        let (serve, folder) = try Self.serve(["--admin-listen", "127.0.0.1:\(taken)", "--syncplay", "127.0.0.1:0"])
        defer { folder.remove() }
        let ended = try await serve.exit(within: Self.bound)
        try await holder.close()
        // (Values, not the process, in the expectations: a failed one reflects what it names.)
        let errors = Self.errorLines(serve)
        #expect(ended == .exited(1), "\(ended)")
        #expect(errors.count == 1 && errors.first?.hasPrefix("tandem: cannot listen on 127.0.0.1:\(taken) (admin): ") == true, "\(errors)")
        // The party port listened first; the gateway, after the admin port, never did.
        let printed = Self.outputLines(serve)
        #expect(printed.count == 1 && printed.first?.hasPrefix("listening on 127.0.0.1:") == true, "\(printed)")
    }

    @Test func aDurationEndsServeByItselfWithStatusZero() async throws {
        let (serve, folder) = try Self.serve(["--duration", "0.5"])
        defer { folder.remove() }
        let ended = try await serve.exit(within: Self.bound)
        let listening = Self.outputLines(serve).first
        #expect(listening?.hasPrefix("listening on 127.0.0.1:") == true, "\(String(describing: listening))")
        let errors = Self.errorLines(serve)
        #expect(ended == .exited(0), "\(ended)")
        #expect(errors.isEmpty, "\(errors)")
    }

    /// The first Ctrl-C drains (a member who stays keeps it draining for --drain-seconds); the second
    /// ends the process at once, by SIGINT, as a second Ctrl-C ends headless `play`'s quit.
    @Test func aSecondInterruptEndsADrainingServe() async throws {
        let (serve, folder) = try Self.serve(["--drain-seconds", "120"])
        defer { folder.remove() }
        let listening = try await serve.line(startingWith: "listening on 127.0.0.1:")
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let host = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: logger)
        defer { host.close() }
        let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 1, duration: 60, streams: ["video"]))
        host.send(PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "Hana", create: PartyConfig(items: [item])))))
        var inbound = host.inbound.makeAsyncIterator()
        #expect(await inbound.next()?.text.contains("welcome") == true)

        serve.interrupt()
        var told = false
        while let message = await inbound.next() {
            if message.text.contains("serverShutdown") { told = true; break }
        }
        #expect(told, "the first Ctrl-C began the drain")
        let draining = serve.isRunning
        #expect(draining, "draining: the host is still in")

        serve.interrupt()
        let ended = try await serve.exit(within: Self.bound)
        #expect(ended == .signalled(SIGINT), "\(ended)")
    }
}

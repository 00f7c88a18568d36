import Foundation
import MPVIPC
import TandemWindow

/// What runs around a joined session, the same for a party member (`host`, `join`) and a Syncplay
/// session (`join syncplay://`): the mpv IPC server, the status line, the script, chat typed on the
/// terminal, the time limit and SIGINT/SIGTERM (a clean leave), and the party window beside it;
/// everything torn down in order once the session ends. The session itself is reached only
/// through these closures.
package struct SessionScaffold: Sendable {
    /// How often the status line is redrawn on a terminal: smooth enough for a position that runs.
    package static let terminalStatusInterval = Duration.milliseconds(100)
    /// How often a status event is printed with `--json`: once a second is plenty for a script.
    package static let jsonStatusInterval = Duration.seconds(1)
    /// How often the script checks whether the session has joined (its steps count from then).
    package static let joinPoll = Duration.milliseconds(20)

    /// `--ipc`: the socket mpv tools steer the session through.
    package var ipc: (path: String, target: any IPCTarget)?
    /// Where notices, the status line and the chat being typed go.
    package var output: PartyOutput
    /// Redraws the status line (or prints a status event with `--json`).
    package var showStatus: @Sendable () async -> Void
    /// True once the session is in its party or room: the script's clock starts then.
    package var isJoined: @Sendable () async -> Bool
    /// Run once, by the status loop, when it first sees the session joined.
    package var afterJoin: @Sendable () async -> Void = {}
    /// `--script`'s steps, carried out by `perform` at their times.
    package var script: PartyScript?
    package var perform: @Sendable (PartyScript.Step) async -> Void
    /// A line typed on the terminal (chat, or a slash command).
    package var typed: @Sendable (String) async -> Void
    /// `--duration`: the session is left after this many seconds (nil: only on SIGINT/SIGTERM).
    package var duration: Double?
    package var leave: @Sendable () async -> Void
    /// The party window, run beside the session by `runWindow`: quitting it leaves, and the
    /// session's end closes it.
    package var window: PartyWindow?
    package var runWindow: @WindowActor @Sendable (PartyWindow) async -> Void = { _ in }

    package init(ipc: (path: String, target: any IPCTarget)?, output: PartyOutput, showStatus: @escaping @Sendable () async -> Void,
                 isJoined: @escaping @Sendable () async -> Bool, afterJoin: @escaping @Sendable () async -> Void = {},
                 script: PartyScript?, perform: @escaping @Sendable (PartyScript.Step) async -> Void,
                 typed: @escaping @Sendable (String) async -> Void, duration: Double?, leave: @escaping @Sendable () async -> Void,
                 window: PartyWindow?, runWindow: @escaping @WindowActor @Sendable (PartyWindow) async -> Void = { _ in }) {
        self.ipc = ipc
        self.output = output
        self.showStatus = showStatus
        self.isJoined = isJoined
        self.afterJoin = afterJoin
        self.script = script
        self.perform = perform
        self.typed = typed
        self.duration = duration
        self.leave = leave
        self.window = window
        self.runWindow = runWindow
    }

    /// Runs `session` to its end with everything around it, then tears it all down (`shutDown`
    /// last, before the output's final line). Nil when the IPC socket could not be had (said on
    /// standard error; the session was not run).
    package func run<Outcome: Sendable>(_ session: () async -> Outcome, shutDown: () async -> Void) async -> Outcome? {
        var ipcServer: IPCServer?
        if let ipc {
            let server = IPCServer(socketPath: ipc.path, target: ipc.target)
            do { try await server.start() } catch {
                printError(error.description)
                return nil
            }
            ipcServer = server
        }
        let status = Task { [output, showStatus, isJoined, afterJoin] in
            var joined = false
            while !Task.isCancelled {
                try? await Task.sleep(for: output.json ? Self.jsonStatusInterval : Self.terminalStatusInterval)
                if !joined, await isJoined() {
                    joined = true
                    await afterJoin()
                }
                await showStatus()
            }
        }
        let scripted = Task { [script, isJoined, perform] in
            while !(await isJoined()) {
                if Task.isCancelled { return }
                try? await Task.sleep(for: Self.joinPoll)
            }
            let start = Date()
            for step in script?.steps ?? [] {
                let wait = step.at - Date().timeIntervalSince(start)
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                if Task.isCancelled { return }
                await perform(step)
            }
        }
        // Read by TerminalChatInput's own thread, never a cooperative one.
        let typed = typed
        let chat = TerminalChatInput.start(output: output) { text in Task { await typed(text) } }
        let stopper = Task { [duration, leave] in
            await waitForSignalOrTimeout(duration)
            if !Task.isCancelled { await leave() }
        }
        let windowLoop = window.map { window in Task { [runWindow] in await runWindow(window) } }
        let outcome = await session()
        if let window {
            await window.stop()
            await windowLoop?.value
            await window.close()
        }
        stopper.cancel()
        chat?.stop()
        scripted.cancel()
        status.cancel()
        await ipcServer?.stop()
        await shutDown()
        output.finish()
        return outcome
    }
}

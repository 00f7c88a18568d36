import ArgumentParser
import Foundation
import PartyKit
import PartyNet
import PlayerCore
import MPVIPC

/// Runs a host or participant: status line, optional script, optional time limit, clean leave on
/// SIGINT. Returns the exit status.
enum MemberSession {
    static func run(_ member: PartyMember, output: PartyOutput, script: PartyScript?, duration: Double?,
                    ipc: String?, window: PartyWindow? = nil,
                    afterJoin: @escaping @Sendable () async -> Void = {}) async -> Int32 {
        var ipcServer: IPCServer?
        if let ipc {
            let server = IPCServer(socketPath: ipc, target: PartyIPCTarget(member: member, onQuit: {
                Task { await member.leave() }
            }))
            do { try await server.start() } catch {
                printError(error.description)
                return 1
            }
            ipcServer = server
        }
        let status = Task {
            var joined = false
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: output.json ? 1_000_000_000 : 100_000_000)
                let s = await member.status
                if s.me != nil, !joined {
                    joined = true
                    await afterJoin()
                }
                output.show(s)
            }
        }
        let scripted = Task {
            while await member.status.me == nil {
                if Task.isCancelled { return }
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            let start = Date()
            for step in script?.steps ?? [] {
                let wait = step.at - Date().timeIntervalSince(start)
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                if Task.isCancelled { return }
                await member.request(step.action, value: step.value)
            }
        }
        // Lines typed on a terminal are chat; "/who" lists who is here.
        let chat = TerminalChatInput.start(output: output) { text in
            Task { if text == "/who" { await member.listParticipants() } else { await member.chat(text) } }
        }
        let stopper = Task {
            await waitForSignalOrTimeout(duration)
            if !Task.isCancelled { await member.leave() }
        }
        // The window runs beside the party; quitting it leaves the party, and the party's end closes it.
        let windowLoop = window.map { window in Task { await window.run(member) } }
        let outcome = await member.run()
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
        await member.shutDown()
        output.finish()
        switch outcome {
        case .left:
            return 0
        case .ended:
            // The party's own notice ("party ended: the host left the party") has said it.
            return 0
        case .failed(let reason):
            printError(reason)
            return 1
        }
    }

    /// Sinks for a headless party member: no pictures, audio paced without a device.
    static func headlessPlayerOptions() -> @Sendable (Int) -> PlayerOptions {
        { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: true)) }
    }
}

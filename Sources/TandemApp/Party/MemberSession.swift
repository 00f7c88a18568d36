import ArgumentParser
import Foundation
import PartyKit
import PartyClient
import PlayerCore
import TandemWindow
import MPVIPC

/// Runs a host or participant in a ``SessionScaffold`` (status line, optional script, optional time
/// limit, clean leave on SIGINT). Returns the exit status.
package enum MemberSession {
    package static func run(_ member: PartyMember, output: PartyOutput, script: PartyScript?, duration: Double?,
                    ipc: String?, window: PartyWindow? = nil,
                    afterJoin: @escaping @Sendable () async -> Void = {}) async -> Int32 {
        let scaffold = SessionScaffold(
            ipc: ipc.map { ($0, PartyIPCTarget(member: member, onQuit: { Task { await member.leave() } })) },
            output: output,
            showStatus: { output.show(await member.status) },
            isJoined: { await member.status.me != nil },
            afterJoin: afterJoin,
            script: script,
            perform: { step in
                if let action = step.action { await member.request(action, value: step.value) } else { await member.goLive() }
            },
            typed: { text in await PartyMemberControls(member: member).chat(text) },
            duration: duration,
            leave: { await member.leave() },
            window: window,
            runWindow: { window in await window.run(member) })
        guard let outcome = await scaffold.run({ await member.run() }, shutDown: { await member.shutDown() }) else { return 1 }
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

    /// Sinks for a headless party member: no pictures; sound on `sound` (`--ao`), else paced without
    /// an output.
    package static func headlessPlayerOptions(sound: SharedSound? = nil) -> @Sendable (Int) -> PlayerOptions {
        { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: sound?.sink() ?? NullAudioSink(realTime: true)) }
    }
}

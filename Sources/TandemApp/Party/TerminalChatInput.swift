import Foundation
import Synchronization

/// Chat typed on the terminal while a party runs: the terminal goes to non-canonical mode without
/// echo, a thread of its own reads the keys into a ``LineEditorState``, and ``PartyOutput`` shows
/// the line being typed in place of the status line, so the status never writes over it. The
/// terminal's settings are restored by ``stop()``, and at exit whatever the way out.
package final class TerminalChatInput: Sendable {
    /// How often the reading thread looks up from its wait for keys to see whether it must stop.
    package static let pollMilliseconds: Int32 = 100

    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// The settings to restore, kept for the exit handler too (a C function cannot capture).
    private static let saved = Mutex<termios?>(nil)
    private static let exitHandlerInstalled = Atomic<Bool>(false)

    /// Starts reading keys when standard input is a terminal (nil otherwise: nothing to type on).
    /// `output` shows the line as it is typed; `onLine` gets each line sent with Enter. With
    /// `--json` there is no status line to keep clear: the terminal keeps its own line editing.
    package static func start(output: PartyOutput, onLine: @escaping @Sendable (String) -> Void) -> TerminalChatInput? {
        // Not from the background (`tandem host … &`): touching the terminal there stops the process.
        guard isatty(0) != 0, tcgetpgrp(0) == getpgrp() else { return nil }
        let input = TerminalChatInput()
        if !output.json, !takeKeys() { return nil }
        let reader = Thread { [input] in
            input.readKeys(output: output, onLine: onLine)
            input.done.signal()
        }
        reader.name = "tandem.chat-input"
        reader.start()
        return input
    }

    /// Non-canonical mode without echo: keys come one by one and Tandem shows them.
    private static func takeKeys() -> Bool {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return false }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)  // ISIG stays: Ctrl-C still leaves the party
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        saved.withLock { $0 = original }
        if !exitHandlerInstalled.exchange(true, ordering: .relaxed) { atexit { TerminalChatInput.restoreTerminal() } }
        return tcsetattr(0, TCSANOW, &raw) == 0
    }

    private func readKeys(output: PartyOutput, onLine: @Sendable (String) -> Void) {
        var editor = LineEditorState()
        var buffer = [UInt8](repeating: 0, count: 256)
        while !stopped.load(ordering: .relaxed) {
            var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, Self.pollMilliseconds) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n <= 0 { break }  // the terminal went away
            for byte in buffer[0..<n] {
                switch editor.feed(byte) {
                case .changed?: output.typing(editor.line)
                case .submitted(let line)?:
                    output.typing(nil)
                    let text = line.trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { onLine(text) }
                case nil: break
                }
            }
        }
    }

    /// Stops reading and gives the terminal its settings back.
    package func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        done.wait()
        Self.restoreTerminal()
    }

    private static func restoreTerminal() {
        guard var original = saved.withLock({ s in defer { s = nil }; return s }) else { return }
        tcsetattr(0, TCSANOW, &original)
    }
}

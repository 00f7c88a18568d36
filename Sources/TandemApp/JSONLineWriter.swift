import Foundation

/// Where `--json` events go: each Encodable event becomes one compact JSON object on one line, with
/// sorted keys (stable output for scripts and tests) and `/` left unescaped (paths stay readable).
package struct JSONLineWriter: Sendable {
    /// Receives each line, newline included.
    package let write: @Sendable (String) -> Void

    /// Lines to standard output.
    package static let standardOutput = JSONLineWriter { FileHandleOutput.standardOutput.write($0) }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The JSON text of `event`, without a newline.
    package static func line(_ event: some Encodable) -> String {
        // The events here hold strings, numbers and flags only; non-finite numbers are written as
        // null by the events themselves, so encoding cannot fail.
        guard let data = try? encoder.encode(event) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `event` as one line.
    package func emit(_ event: some Encodable) {
        write(Self.line(event) + "\n")
    }
}

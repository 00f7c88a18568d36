import Foundation
import MPVIPC
import Synchronization
import Testing
@testable import TandemApp

/// Collects what an output prints as JSON lines, and reads them back.
final class LineRecorder: Sendable {
    private let text = Mutex("")

    /// A writer that appends here instead of printing.
    var writer: JSONLineWriter {
        JSONLineWriter { [self] line in self.text.withLock { $0 += line } }
    }

    /// Every line printed so far, without the newlines.
    var lines: [String] {
        text.withLock { $0 }.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The lines decoded as `T` with Foundation's decoder (the way a consumer reads them).
    func decoded<T: Decodable>(_ type: T.Type) throws -> [T] {
        try lines.map { try JSONDecoder().decode(T.self, from: Data($0.utf8)) }
    }

    /// The lines as JSON values.
    var values: [JSONValue] { lines.compactMap { JSONValue.parse($0) } }
}

/// Each printed text ends with exactly one newline and holds one JSON object per line.
func expectWellFormed(_ recorder: LineRecorder, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(recorder.values.count == recorder.lines.count, "unparsable line in \(recorder.lines)", sourceLocation: sourceLocation)
    #expect(recorder.values.allSatisfy { if case .object = $0 { true } else { false } }, sourceLocation: sourceLocation)
}

import CFFmpeg

/// A real FFmpeg failure: the operation that failed, its error code and FFmpeg's own wording.
///
/// `EAGAIN` and `EOF` are never thrown: they are control flow, see ``IOStatus``.
public struct FFmpegError: Error, CustomStringConvertible, Sendable, Equatable {
    public let code: Int32
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// FFmpeg's text for the code (`av_strerror`).
    public var reason: String { Self.describe(code) }

    public var description: String { "\(operation): \(reason)" }

    public static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static let endOfFile = tandem_averror_eof()
    public static let tryAgain = tandem_averror_eagain()
    public static let exit = tandem_averror_exit()
    public static let invalidData = tandem_averror_invaliddata()
}

/// The outcome of a send/receive/read call whose "not now" and "no more" answers are not errors.
public enum IOStatus: Sendable, Equatable {
    case ok
    /// Needs more input (EAGAIN): feed the other side first.
    case again
    /// The stream is drained (EOF).
    case endOfStream
}

@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) {
    if code < 0 { throw FFmpegError(code: code, operation: operation()) }
}

@inline(__always)
func status(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> IOStatus {
    if code >= 0 { return .ok }
    if code == FFmpegError.tryAgain { return .again }
    if code == FFmpegError.endOfFile { return .endOfStream }
    throw FFmpegError(code: code, operation: operation())
}

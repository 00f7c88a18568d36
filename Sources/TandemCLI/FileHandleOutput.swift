import Foundation

/// Unbuffered writes to stdout/stderr that interleave correctly with FFmpeg's own output.
struct FileHandleOutput: Sendable {
    let fd: Int32
    static let standardOutput = FileHandleOutput(fd: 1)
    static let standardError = FileHandleOutput(fd: 2)

    func write(_ string: String) {
        var bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    var isTerminal: Bool { isatty(fd) != 0 }
}

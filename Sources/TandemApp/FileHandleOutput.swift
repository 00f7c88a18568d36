import Foundation

/// Unbuffered writes to stdout/stderr that interleave correctly with FFmpeg's own output.
package struct FileHandleOutput: Sendable {
    package let fd: Int32
    package static let standardOutput = FileHandleOutput(fd: 1)
    package static let standardError = FileHandleOutput(fd: 2)

    package func write(_ string: String) {
        var bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    package var isTerminal: Bool { isatty(fd) != 0 }
}

/// Prints `tandem: MESSAGE` on standard error.
package func printError(_ message: String) {
    FileHandleOutput.standardError.write("tandem: \(message)\n")
}

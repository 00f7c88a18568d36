import CFFmpeg
import FFmpegKit

/// Throws an ``FFmpegError`` naming `operation` when an FFmpeg call returned a negative code.
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) {
    if code < 0 { throw FFmpegError(code: code, operation: operation()) }
}

/// A timestamp FFmpeg did not set.
let noTimestamp = tandem_nopts_value()

import FFmpegKit
import Foundation
import Testing
import TestSupport
@testable import WebMedia

/// What remuxing costs the host per guest, measured, never asserted (a loaded machine says nothing
/// about the code): `TANDEM_WEBMEDIA_COST=1 swift test --skip-build --filter CostTests`. Makes a 60 s
/// 1080p H.264 clip (AC-3 5.1 sound and AAC sound), then every segment of each, and prints the CPU
/// time that took on the making thread as a share of one core over the clip's duration.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TANDEM_WEBMEDIA_COST"] != nil, "set TANDEM_WEBMEDIA_COST=1 to measure"))
struct CostTests {
    init() { FFmpegLog.configure(level: .error) }

    @Test(arguments: ["ac3", "aac"])
    func remuxingA1080pClipCostsAFewPercentOfACore(_ sound: String) async throws {
        let path = try await Clips.made("1080p-\(sound)-1.mkv", [
            "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=24:d=60", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=60",
            "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "6M", "-g", "48", "-pix_fmt", "yuv420p", "-c:a", sound, "-ac", "6", "-f", "matroska"])
        let result: (prepare: Double, segments: Double, count: Int, bytes: Int) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let start = Self.threadCPU()
                    let input = try InputFile(url: path)
                    let geometry = try RemuxGeometry(input, audio: sound == "aac" ? .copy : .transcode)
                    let prepared = Self.threadCPU()
                    let segmenter = FragmentedMP4Segmenter(input: input, geometry: geometry)
                    var bytes = try segmenter.initSegment().count
                    for k in 0..<geometry.index.count { bytes += try segmenter.segment(k).count }
                    return (prepared - start, Self.threadCPU() - prepared, geometry.index.count, bytes)
                })
            }
        }
        let share = result.segments / 60 * 100
        print(String(format: "1080p %@: prepare %.3f s CPU; %d segments (%.1f MB) in %.3f s CPU = %.2f %% of a core while playing",
                     sound, result.prepare, result.count, Double(result.bytes) / 1e6, result.segments, share))
    }

    /// CPU seconds this thread has used.
    static func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

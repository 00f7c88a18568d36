import CFFmpeg
import CLibass
import FFmpegKit
import Foundation
import PlayerCore

/// The ``SubtitleRenderer`` `tandem play` uses: text cues drawn by libass, bitmap cues (PGS, DVB,
/// DVD) scaled to the picture, both blended onto an RGBA copy of the decoded picture. Pictures
/// without a subtitle on them pass through untouched (no conversion, no copy).
///
/// The player calls it from its presentation thread only; the libass objects and the scaler are
/// used from there alone, which is why it may be `@unchecked Sendable`.
public final class SubtitleCompositor: SubtitleRenderer, @unchecked Sendable {
    private var ass: ASSLibrary?
    private let scaler = ImageScaler(pixelFormat: AV_PIX_FMT_RGBA, followsColorspace: true)
    private var reportedError = false

    public init() {}

    public func render(_ cues: [SubtitleCue], track: SubtitleRenderTrack, at time: Double, onto frame: Frame) -> Frame? {
        let width = frame.width, height = frame.height
        guard width > 0, height > 0 else { return nil }
        let sar = frame.pointer.pointee.sample_aspect_ratio
        let sampleAspect = sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : 1
        var canvas: Frame?
        func target() -> Frame? {
            if let canvas { return canvas }
            do {
                let converted = try scaler.convert(frame)
                converted.pointer.pointee.sample_aspect_ratio = frame.pointer.pointee.sample_aspect_ratio
                canvas = converted
                return converted
            } catch {
                if !reportedError { FileHandle.standardError.write(Data("tandem: subtitles: \(error)\n".utf8)) }
                reportedError = true
                return nil
            }
        }
        let text = cues.compactMap { cue -> (id: Int, start: Int64, duration: Int64, lines: [String])? in
            guard case .ass(let lines) = cue.content else { return nil }
            let start = Self.milliseconds(cue.start)
            let end = cue.end.map(Self.milliseconds) ?? Self.milliseconds(time) + Self.openEndedMilliseconds
            return (cue.id, start, max(end - start, 1), lines)
        }
        if !text.isEmpty {
            let library = ass ?? ASSLibrary()
            ass = library
            library.render(text, header: SubtitleKeyedHeader(id: track.id, header: track.header), at: Self.milliseconds(time),
                           width: width, height: height, sampleAspect: sampleAspect) { image in
                guard let canvas = target() else { return }
                Self.blend(image.pointee, onto: canvas)
            }
        }
        for cue in cues {
            guard case .bitmaps(let bitmaps) = cue.content else { continue }
            for bitmap in bitmaps {
                guard let canvas = target() else { break }
                Self.blend(bitmap, onto: canvas)
            }
        }
        return canvas
    }

    /// An open-ended text cue is given libass this long past the time shown (it is re-added when
    /// the set of cues changes anyway).
    static let openEndedMilliseconds: Int64 = 3_600_000

    static func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }
}

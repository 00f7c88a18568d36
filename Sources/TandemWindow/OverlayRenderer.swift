import CSDL2
import Foundation
import Logging

/// Draws what goes over the pictures: the progress bar and clock, the story segment indicator, a
/// status line, toasts, mpv-style OSD messages ("Volume: 50%"), an error line. Text comes from
/// SDL_ttf (DejaVu Sans); without the font everything but the text is drawn.
///
/// Each turn the window asks for a ``Layout`` (what would be drawn, as values) and renders only
/// when it differs from the last one drawn, or when the pictures changed.
@WindowActor
final class OverlayRenderer {
    static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Points (pixels at SDL_ttf's 72 dpi): readable in a 640x360 window, small on a 1080p one.
    static let fontSize: Int32 = 16
    /// Text grows with the window beyond this size (as mpv's OSD scales with the window height),
    /// up to ``maxFontSize``; smaller windows keep ``fontSize``, the least that reads well.
    static let fontScaleReference = DisplayGeometry.Size(width: 640, height: 360)
    /// 3× at 1080p and beyond: a bigger clock only covers more of the picture.
    static let maxFontSize: Int32 = 48
    /// How long a toast stays up, and the fade at its end.
    static let toastSeconds = 3.0
    static let fadeSeconds = 0.5
    /// mpv's default OSD duration.
    static let osdSeconds = 1.0
    /// More toasts at once would cover the picture: the newest are kept.
    static let maxToasts = 4
    static let margin = 12
    static let barHeight = 4
    static let segmentHeight = 3
    static let segmentGap = 4
    static let pausedText = "Paused"
    /// Least space between the clock and "Paused" on one line: less reads as one word ("1:0Paused").
    static let pausedGap = 12
    /// Between the clock's line and the "Paused" line stacked above it.
    static let stackedLineGap = 4
    /// A dark band behind the story segments, this many pixels past them on each side, at this
    /// alpha: white bars stay readable over a light picture (a sky, snow) and barely dim a dark one.
    static let segmentBackingPad = 5
    static let segmentBackingAlpha: UInt8 = 110
    /// Fade levels a toast's alpha is rounded to: enough for a smooth fade, few enough redraws.
    static let alphaSteps = 16.0

    /// What the overlays show at one instant; equal layouts look the same.
    struct Layout: Equatable {
        struct Segments: Equatable {
            var index: Int
            var count: Int
            /// Pixels of the current segment that are filled.
            var fill: Int
        }

        struct ToastLine: Equatable {
            var text: String
            var alpha: UInt8
        }

        var size: DisplayGeometry.Size
        /// The progress bar, clock and "Paused" show (they hide with ``ControlsVisibility``).
        var controls = true
        var clock: String
        var paused: Bool
        var barFill: Int?
        var segments: Segments?
        var status: String?
        var toasts: [ToastLine]
        var osd: String?
        var error: String?
    }

    private let renderer: OpaquePointer
    private var font: OpaquePointer?
    private var texts: TextTextureCache
    private let fontPath: String?
    private let logger: Logger
    /// The size `font` was opened at.
    private(set) var fontPoints: Int32 = OverlayRenderer.fontSize
    private var toastFirstSeen: [Int: Double] = [:]
    private var levels: (volume: Int, muted: Bool)?
    private var osd: (text: String, until: Double)?

    /// `fontPath`: nil draws no text (SDL_ttf did not start). Needs `TTF_Init` done (the window does it).
    init(renderer: OpaquePointer, fontPath: String?, logger: Logger) {
        self.renderer = renderer
        let font = fontPath.flatMap { TTF_OpenFont($0, Self.fontSize) }
        if let fontPath, font == nil { logger.warning("font \(fontPath): \(sdlError()); overlays are drawn without text") }
        self.font = font
        self.fontPath = font == nil ? nil : fontPath
        self.logger = logger
        texts = TextTextureCache(renderer: renderer, font: font)
    }

    /// The text size for a window of `size`: ``fontSize`` scaled by the smaller of its width and
    /// height ratios to ``fontScaleReference``, never below ``fontSize`` nor above ``maxFontSize``.
    static func fontSize(for size: DisplayGeometry.Size) -> Int32 {
        let scale = min(Double(size.width) / Double(fontScaleReference.width), Double(size.height) / Double(fontScaleReference.height))
        return min(maxFontSize, max(fontSize, Int32((Double(fontSize) * scale).rounded(.down))))
    }

    /// Reopens the font at the size for `size` when it changed (text textures are made again).
    private func scaleFont(to size: DisplayGeometry.Size) {
        let points = Self.fontSize(for: size)
        guard points != fontPoints, let fontPath, let old = font else { return }
        guard let scaled = TTF_OpenFont(fontPath, points) else {
            logger.warning("font \(fontPath) at \(points) pt: \(sdlError()); the text keeps its size")
            fontPoints = points
            return
        }
        texts.destroy()
        TTF_CloseFont(old)
        font = scaled
        texts = TextTextureCache(renderer: renderer, font: scaled)
        fontPoints = points
    }

    isolated deinit { destroy() }

    var hasFont: Bool { font != nil }

    /// Text textures held (for tests of the cache).
    var cachedTexts: Int { texts.count }

    /// Notes what is new in `scene` (toasts seen for the first time, volume or mute changes).
    /// Call every turn, drawn or not, so toasts are timed from when they came.
    func observe(_ scene: WindowScene, now: Double) {
        var seen: [Int: Double] = [:]
        for toast in scene.toasts { seen[toast.id] = toastFirstSeen[toast.id] ?? now }
        toastFirstSeen = seen
        if let levels, levels.volume != scene.volume {
            osd = ("Volume: \(scene.volume)%", now + Self.osdSeconds)
        } else if let levels, levels.muted != scene.muted {
            osd = ("Mute: \(scene.muted ? "yes" : "no")", now + Self.osdSeconds)
        }
        levels = (scene.volume, scene.muted)
        if let o = osd, o.until <= now { osd = nil }
    }

    /// What would be drawn for `scene` in a window of `size` at `now`.
    /// `controls`: the progress bar, clock and "Paused" are shown.
    func layout(_ scene: WindowScene, size: DisplayGeometry.Size, now: Double, controls: Bool = true) -> Layout {
        let barWidth = max(0, size.width - 2 * Self.margin)
        // A live item's duration (none, or 0) is no end to hold its position to.
        let end = scene.behindLive == nil ? scene.duration : nil
        let position = max(0, end.map { min(scene.position, $0) } ?? scene.position)
        var clock = Self.clock(position)
        var fill: Int?
        if let behind = scene.behindLive {
            clock += " · " + Self.liveText(behindEdge: behind)
        } else if let duration = scene.duration, duration > 0 {
            clock += " / " + Self.clock(duration)
            fill = Int(Double(barWidth) * min(max(position / duration, 0), 1))
        }
        let segments = scene.segments.flatMap { s -> Layout.Segments? in
            guard s.count > 0 else { return nil }
            let width = Double(Self.segmentWidth(count: s.count, in: size))
            return Layout.Segments(index: s.index, count: s.count, fill: Int(width * min(max(s.progress, 0), 1)))
        }
        let toasts = scene.toasts.sorted { $0.id < $1.id }.compactMap { toast -> Layout.ToastLine? in
            let age = now - (toastFirstSeen[toast.id] ?? now)
            guard age < Self.toastSeconds else { return nil }
            let alpha = min(1, (Self.toastSeconds - age) / Self.fadeSeconds)
            return Layout.ToastLine(text: toast.text, alpha: UInt8((alpha * Self.alphaSteps).rounded(.up) / Self.alphaSteps * 255))
        }.suffix(Self.maxToasts)
        return Layout(size: size, controls: controls, clock: clock, paused: scene.paused, barFill: fill, segments: segments,
                      status: scene.status, toasts: Array(toasts), osd: osd?.text, error: scene.error)
    }

    /// "LIVE −12s" (at the edge within half a second: "LIVE"), as the party's status line says it.
    static func liveText(behindEdge seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded())
        return whole == 0 ? "LIVE" : "LIVE −\(whole)s"
    }

    /// Draws `layout` over what is in the back buffer.
    func draw(_ layout: Layout) {
        scaleFont(to: layout.size)
        let w = layout.size.width, h = layout.size.height, m = Self.margin
        let line = max(texts.lineHeight, 16)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        // Bottom strip: clock above a thin progress bar; "Paused" at the right of the clock, or on
        // its own line above it when the window is too narrow for both.
        let barY = h - m - Self.barHeight
        let clockY = barY - 6 - line
        let paused = layout.paused ? texts.text(Self.pausedText, color: Self.white) : nil
        let clockWidth = texts.text(layout.clock, color: Self.white)?.width ?? 0
        let stacked = paused.map { !Self.pausedFitsBesideClock(clockWidth: clockWidth, pausedWidth: $0.width, width: w) } ?? false
        let stripTop = layout.controls ? clockY - 6 - (stacked ? line + Self.stackedLineGap : 0) : h
        if layout.controls {
            fill(0, stripTop, w, h - stripTop, gray: 0, alpha: 140)
            fill(m, barY, w - 2 * m, Self.barHeight, gray: 255, alpha: 70)
            if let barFill = layout.barFill { fill(m, barY, barFill, Self.barHeight, gray: 255, alpha: 230) }
            drawText(layout.clock, x: m, y: clockY, box: false)
        }
        if layout.controls, let paused {
            drawText(Self.pausedText, x: stacked ? m : w - m - paused.width,
                     y: stacked ? clockY - line - Self.stackedLineGap : clockY, box: false)
        }
        var top = 8
        if let s = layout.segments {
            let width = Self.segmentWidth(count: s.count, in: layout.size)
            let pad = Self.segmentBackingPad
            fill(0, max(0, top - pad), w, Self.segmentHeight + 2 * pad, gray: 0, alpha: Self.segmentBackingAlpha)
            for i in 0..<s.count {
                let x = 8 + i * (width + Self.segmentGap)
                fill(x, top, width, Self.segmentHeight, gray: 255, alpha: 90)
                let filled = i < s.index ? width : i == s.index ? s.fill : 0
                if filled > 0 { fill(x, top, filled, Self.segmentHeight, gray: 255, alpha: 240) }
            }
            top += Self.segmentHeight + 8
        }
        if let status = layout.status {
            drawText(status, x: m, y: top)
            top += line + 8
        }
        if let osd = layout.osd { drawText(osd, x: m, y: top) }
        var y = stripTop - 8 - line
        for toast in layout.toasts.reversed() {
            drawText(toast.text, x: m, y: y, alpha: toast.alpha)
            y -= line + 8
        }
        if let error = layout.error, let t = texts.text(error, color: Self.red) {
            drawText(error, x: max(m, (w - t.width) / 2), y: (h - t.height) / 2, color: Self.red)
        }
        texts.endTurn()
    }

    func destroy() {
        texts.destroy()
        if let font { TTF_CloseFont(font) }
        font = nil
    }

    // MARK: Drawing

    static let white = SDL_Color(r: 255, g: 255, b: 255, a: 255)
    static let red = SDL_Color(r: 255, g: 96, b: 96, a: 255)

    private func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int, gray: UInt8, alpha: UInt8) {
        guard w > 0, h > 0 else { return }
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(w), h: Int32(h))
        SDL_SetRenderDrawColor(renderer, gray, gray, gray, alpha)
        SDL_RenderFillRect(renderer, &rect)
    }

    /// Text at (x, y), on a translucent box unless `box` is false.
    private func drawText(_ string: String, x: Int, y: Int, color: SDL_Color = white, alpha: UInt8 = 255, box: Bool = true) {
        guard let t = texts.text(string, color: color) else { return }
        if box { fill(x - 4, y - 2, t.width + 8, t.height + 4, gray: 0, alpha: UInt8(Int(alpha) * 150 / 255)) }
        SDL_SetTextureAlphaMod(t.texture, alpha)
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(t.width), h: Int32(t.height))
        SDL_RenderCopy(renderer, t.texture, nil, &rect)
    }

    /// Whether "Paused" fits right-aligned on the clock's line of a window `width` wide, with
    /// ``pausedGap`` between them; else it goes on a line of its own above the clock.
    static func pausedFitsBesideClock(clockWidth: Int, pausedWidth: Int, width: Int) -> Bool {
        margin + clockWidth + pausedGap + pausedWidth <= width - margin
    }

    private static func segmentWidth(count: Int, in size: DisplayGeometry.Size) -> Int {
        max(1, (size.width - 16 - (count - 1) * segmentGap) / max(count, 1))
    }

    /// "0:12", "1:00:05": minutes and seconds, hours only when needed (as mpv's OSD and players do).
    static func clock(_ seconds: Double) -> String {
        let s = seconds.isFinite ? max(0, Int(seconds)) : 0
        if s >= 3600 { return String(format: "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60) }
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}

import FFmpegKit

/// Where and how a decoded picture is drawn: its displayed size once the sample aspect ratio and the
/// display-matrix rotation are applied, and the letterboxed rectangle it fills in a window.
///
/// Pure arithmetic, no SDL: the window feeds the result to `SDL_RenderCopyEx`.
public struct DisplayGeometry: Sendable, Equatable {
    /// A size in pixels.
    public struct Size: Sendable, Equatable, CustomStringConvertible {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
        public var description: String { "\(width)x\(height)" }
    }

    /// A rectangle in window pixels, origin top-left.
    public struct Rect: Sendable, Equatable, CustomStringConvertible {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        public var description: String { "\(width)x\(height)@\(x),\(y)" }
    }

    /// Mirroring applied to the texture before it is rotated (SDL_RendererFlip).
    public enum Flip: Sendable, Equatable { case none, horizontal, vertical }

    /// Stored picture size (the decoded frame).
    public let frameSize: Size
    /// Sample (pixel) aspect ratio; 0/1 and other invalid values mean square pixels.
    public let sampleAspect: Rational
    /// Counter-clockwise quarter turns applied for display, 0…3.
    public let quarterTurns: Int
    public let flip: Flip

    /// - Parameters:
    ///   - rotation: display-matrix rotation in degrees counter-clockwise, as ffprobe prints it
    ///     (`StreamInfo.rotation`); rounded to the nearest multiple of 90.
    ///   - mirrored: the display matrix also mirrors the picture horizontally.
    public init(frameSize: Size, sampleAspect: Rational = Rational(1, 1), rotation: Double = 0, mirrored: Bool = false) {
        self.frameSize = frameSize
        self.sampleAspect = sampleAspect.num > 0 && sampleAspect.den > 0 ? sampleAspect : Rational(1, 1)
        let turns = rotation.isFinite ? Int((rotation / 90).rounded()) : 0
        quarterTurns = ((turns % 4) + 4) % 4
        flip = mirrored ? .horizontal : .none
    }

    /// True when the picture is shown on its side (90 or 270 degrees): width and height swap.
    public var isSideways: Bool { quarterTurns % 2 == 1 }

    /// Clockwise degrees for `SDL_RenderCopyEx` (SDL turns clockwise, the display matrix counter-clockwise).
    public var angle: Double { Double((4 - quarterTurns) % 4 * 90) }

    /// Width over height of the picture as displayed.
    public var aspectRatio: Double {
        guard frameSize.width > 0, frameSize.height > 0 else { return 1 }
        let stored = Double(frameSize.width) * sampleAspect.value / Double(frameSize.height)
        return isSideways ? 1 / stored : stored
    }

    /// The picture's size in square pixels, as a player sizes its window: non-square pixels stretch the
    /// width (height kept, like ffplay), then a quarter turn swaps the sides. 720x576 at 16:15 is 768x576.
    public var displaySize: Size {
        let width = max(1, Int((Double(frameSize.width) * sampleAspect.value).rounded()))
        let height = max(1, frameSize.height)
        return isSideways ? Size(width: height, height: width) : Size(width: width, height: height)
    }

    /// The rectangle the displayed picture fills in a window of `window` size: as large as fits,
    /// aspect ratio kept, centred (black bars on the other axis).
    public func destination(in window: Size) -> Rect {
        guard window.width > 0, window.height > 0 else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let aspect = aspectRatio
        var height = window.height
        var width = Int((Double(height) * aspect).rounded())
        if width > window.width {
            width = window.width
            height = min(window.height, Int((Double(width) / aspect).rounded()))
        }
        width = max(1, width)
        height = max(1, height)
        return Rect(x: (window.width - width) / 2, y: (window.height - height) / 2, width: width, height: height)
    }

    /// The rectangle to hand to `SDL_RenderCopyEx`, which rotates about the rectangle's centre: for a
    /// sideways picture it is `destination` with width and height swapped around the same centre.
    public func copyRect(in window: Size) -> Rect {
        let d = destination(in: window)
        guard isSideways else { return d }
        return Rect(x: d.x + (d.width - d.height) / 2, y: d.y + (d.height - d.width) / 2, width: d.height, height: d.width)
    }

    /// A window size showing the picture at `displaySize`, scaled down (aspect kept) to fit in `bounds`.
    public func windowSize(fittingIn bounds: Size?) -> Size {
        let natural = displaySize
        guard let bounds, bounds.width > 0, bounds.height > 0,
              natural.width > bounds.width || natural.height > bounds.height else { return natural }
        let r = destination(in: bounds)
        return Size(width: r.width, height: r.height)
    }
}

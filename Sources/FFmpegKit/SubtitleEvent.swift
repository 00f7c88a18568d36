/// One decoded subtitle: what libavcodec's subtitle decoders give for a packet, in seconds.
public struct SubtitleEvent: Sendable, Equatable {
    /// What is shown.
    public enum Content: Sendable, Equatable {
        /// ASS event lines in libavcodec's form (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`):
        /// every text format (SRT, WebVTT, mov_text, ASS/SSA) decodes to these; libass draws them.
        case ass([String])
        /// Pictures (PGS, DVB, DVD subtitles), placed on a canvas of the decoder's size.
        case bitmaps([SubtitleBitmap])
    }

    /// Media seconds on the stream's timeline (before the container start is subtracted).
    public var start: Double
    /// Nil: shown until the next event of the track starts (bitmap formats often say so).
    public var end: Double?
    public var content: Content

    public init(start: Double, end: Double?, content: Content) {
        self.start = start
        self.end = end
        self.content = content
    }

    /// True for an event that draws nothing (a bitmap format's "clear the screen").
    public var isEmpty: Bool {
        switch content {
        case .ass(let lines): lines.isEmpty
        case .bitmaps(let bitmaps): bitmaps.isEmpty
        }
    }
}

/// One picture of a bitmap subtitle, in straight (not premultiplied) RGBA.
public struct SubtitleBitmap: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var image: RGBAImage
    /// The picture size the position refers to (the subtitle stream's own; scaled to the video's).
    public var canvasWidth: Int
    public var canvasHeight: Int

    public init(x: Int, y: Int, image: RGBAImage, canvasWidth: Int, canvasHeight: Int) {
        self.x = x
        self.y = y
        self.image = image
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }
}

import CSDL2
import Logging

/// Draws the chat line being typed (``WindowScene/chatLine``) as a bar over the bottom of the
/// window: "> text" and a caret, the end of the text kept in view when it is wider than the window.
/// Owns its font and text textures; ``destroy()`` before the renderer goes.
@WindowActor
final class ChatLineOverlay {
    /// Opaque enough to read over any picture (the clock and bar under it are hidden while typing).
    static let backingAlpha: UInt8 = 210
    static let padding = 8
    static let prompt = "> "
    static let caret = "▏"

    private let renderer: OpaquePointer
    private var font: OpaquePointer?
    private let texts: TextTextureCache

    /// `fontPath`: nil draws the bar without text (SDL_ttf did not start). Needs `TTF_Init` done.
    init(renderer: OpaquePointer, fontPath: String?, logger: Logger) {
        self.renderer = renderer
        let font = fontPath.flatMap { TTF_OpenFont($0, OverlayRenderer.fontSize) }
        if let fontPath, font == nil { logger.warning("font \(fontPath): \(sdlError()); the chat line is drawn without text") }
        self.font = font
        texts = TextTextureCache(renderer: renderer, font: font)
    }

    isolated deinit { destroy() }

    /// The bar's rectangle in a window of `size` (tests look for it there).
    func barRect(in size: DisplayGeometry.Size) -> (x: Int, y: Int, width: Int, height: Int) {
        let height = max(texts.lineHeight, 16) + 2 * Self.padding
        return (0, size.height - height, size.width, height)
    }

    /// Draws the line over what is in the back buffer.
    func draw(_ line: String, size: DisplayGeometry.Size) {
        let bar = barRect(in: size)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, Self.backingAlpha)
        var rect = SDL_Rect(x: Int32(bar.x), y: Int32(bar.y), w: Int32(bar.width), h: Int32(bar.height))
        SDL_RenderFillRect(renderer, &rect)
        let room = size.width - 2 * Self.padding
        var shown = line
        // The end of a long line stays in view: drop characters from the front until it fits.
        while !shown.isEmpty, width(of: Self.prompt + "…" + shown + Self.caret) > room { shown.removeFirst() }
        let text = Self.prompt + (shown.count < line.count ? "…" : "") + shown + Self.caret
        if let t = texts.text(text, color: SDL_Color(r: 255, g: 255, b: 255, a: 255)) {
            var target = SDL_Rect(x: Int32(Self.padding), y: Int32(bar.y + (bar.height - t.height) / 2),
                                  w: Int32(t.width), h: Int32(t.height))
            SDL_RenderCopy(renderer, t.texture, nil, &target)
        }
        texts.endTurn()
    }

    private func width(of text: String) -> Int {
        guard let font else { return 0 }
        var w: Int32 = 0, h: Int32 = 0
        TTF_SizeUTF8(font, text, &w, &h)
        return Int(w)
    }

    func destroy() {
        texts.destroy()
        if let font { TTF_CloseFont(font) }
        font = nil
    }
}

extension PlayerWindow {
    /// Draws the chat line bar, making its overlay on first use.
    func drawChatLine(_ line: String, size: DisplayGeometry.Size) {
        let chat = chatOverlay ?? ChatLineOverlay(renderer: renderer, fontPath: overlay.hasFont ? OverlayRenderer.defaultFontPath : nil,
                                                  logger: logger)
        chatOverlay = chat
        chat.draw(line, size: size)
    }
}

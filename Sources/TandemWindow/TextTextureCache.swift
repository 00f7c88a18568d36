import CSDL2

/// Rendered text as SDL textures, one per distinct (text, colour): text is rasterised by SDL_ttf
/// only when it changes. Entries unused for ``retainTurns`` render turns are destroyed.
/// Owns its textures (not the font); ``destroy()`` before the renderer goes.
@WindowActor
final class TextTextureCache {
    /// A progress clock changes once a second and toasts come and go: keep a few seconds' worth
    /// of turns so text that comes back is not rasterised again, without growing for ever.
    static let retainTurns: UInt64 = 240

    struct Text {
        let texture: OpaquePointer
        let width: Int
        let height: Int
    }

    private struct Key: Hashable {
        var text: String
        var rgba: UInt32
    }

    private struct Entry {
        var text: Text
        var lastUsed: UInt64
    }

    private let renderer: OpaquePointer
    private let font: OpaquePointer?
    private var entries: [Key: Entry] = [:]
    private var turn: UInt64 = 0

    /// `font`: a `TTF_Font` the caller keeps open while this cache lives; nil draws no text.
    init(renderer: OpaquePointer, font: OpaquePointer?) {
        self.renderer = renderer
        self.font = font
    }

    isolated deinit { destroy() }

    /// Line height of the font in pixels (0 without a font).
    var lineHeight: Int { font.map { Int(TTF_FontLineSkip($0)) } ?? 0 }

    /// The texture for `text` in `color`, rasterised on first use; nil without a font or for empty text.
    func text(_ string: String, color: SDL_Color) -> Text? {
        guard let font, !string.isEmpty else { return nil }
        let key = Key(text: string, rgba: UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a))
        if let entry = entries[key] {
            entries[key]?.lastUsed = turn
            return entry.text
        }
        guard let surface = TTF_RenderUTF8_Blended(font, string, color) else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        let text = Text(texture: texture, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        entries[key] = Entry(text: text, lastUsed: turn)
        return text
    }

    /// Ends a render turn: drops what has not been used for a while.
    func endTurn() {
        turn += 1
        guard turn > Self.retainTurns else { return }
        let limit = turn - Self.retainTurns
        for (key, entry) in entries where entry.lastUsed < limit {
            SDL_DestroyTexture(entry.text.texture)
            entries[key] = nil
        }
    }

    var count: Int { entries.count }

    func destroy() {
        for entry in entries.values { SDL_DestroyTexture(entry.text.texture) }
        entries.removeAll()
    }
}

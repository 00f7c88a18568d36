import CSDL2

/// How a story swipe moves the pictures (`tandem stories --transition`).
public enum StoryTransition: String, Sendable, CaseIterable {
    /// The pictures slide side by side (Instagram's stories).
    case slide
    /// The pictures turn as two faces of a cube (Bambuser's and Instagram's stories): the leaving
    /// one folds away toward the far edge while the coming one unfolds from the near edge, the
    /// face turning away darkening.
    case cube
}

/// Where the two faces of a cube transition are drawn, as horizontal strips of the window.
struct CubeFaces: Equatable {
    /// A picture squeezed into columns `x ..< x + width` of the window, darkened by `shade` (alpha 0…255).
    struct Face: Equatable {
        var x: Int
        var width: Int
        var shade: UInt8
    }

    /// The face turning away is darkened up to this alpha as it vanishes (light falling off, as
    /// on a turning cube); the coming one brightens from it.
    static let maxShade = 160.0

    var primary: Face
    var secondary: Face

    /// The faces at swipe `slide` (−1…1, as ``WindowScene/slide``) in a window `width` wide.
    /// Positive: the secondary comes from the right, the primary folds to the left.
    init(slide: Double, width: Int) {
        let p = min(max(abs(slide), 0), 1)
        let incoming = Int((Double(width) * p).rounded())
        let outgoing = width - incoming
        let fading = UInt8(Self.maxShade * p)
        let rising = UInt8(Self.maxShade * (1 - p))
        if slide >= 0 {
            primary = Face(x: 0, width: outgoing, shade: fading)
            secondary = Face(x: outgoing, width: incoming, shade: rising)
        } else {
            primary = Face(x: incoming, width: outgoing, shade: fading)
            secondary = Face(x: 0, width: incoming, shade: rising)
        }
    }
}

extension CubeFaces.Face {
    /// `rect` (a picture placed in the whole window) squeezed horizontally into this face.
    func squeeze(_ rect: SDL_Rect, windowWidth: Int) -> SDL_Rect {
        let scale = Double(width) / Double(max(windowWidth, 1))
        return SDL_Rect(x: Int32(x + Int((Double(rect.x) * scale).rounded())), y: rect.y,
                        w: Int32((Double(rect.w) * scale).rounded()), h: rect.h)
    }
}

extension PlayerWindow {
    /// Darkens a cube face as it turns away.
    func shade(_ face: CubeFaces.Face, height: Int) {
        guard face.shade > 0, face.width > 0 else { return }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, face.shade)
        var rect = SDL_Rect(x: Int32(face.x), y: 0, w: Int32(face.width), h: Int32(height))
        SDL_RenderFillRect(renderer, &rect)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }
}

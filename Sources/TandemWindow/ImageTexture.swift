import CSDL2
import FFmpegKit

/// Owns one static SDL texture made from an ``RGBAImage`` (a poster). Only this object destroys
/// it: in ``destroy()`` (before the renderer goes) or in deinit.
@WindowActor
final class ImageTexture {
    /// The image in the texture (compared by value; arrays compare by identity first, so this is cheap).
    let image: RGBAImage
    private(set) var texture: OpaquePointer?

    init(image: RGBAImage, renderer: OpaquePointer) throws(WindowError) {
        self.image = image
        guard image.width > 0, image.height > 0 else { return }
        guard let t = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                        Int32(image.width), Int32(image.height)) else {
            throw WindowError.sdl("SDL_CreateTexture \(image.width)x\(image.height): \(sdlError())")
        }
        texture = t
        let status = image.pixels.withUnsafeBytes { SDL_UpdateTexture(t, nil, $0.baseAddress, Int32(image.width * 4)) }
        guard status == 0 else {
            destroy()
            throw WindowError.sdl("SDL_UpdateTexture: \(sdlError())")
        }
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
    }

    isolated deinit { destroy() }

    var geometry: DisplayGeometry {
        DisplayGeometry(frameSize: DisplayGeometry.Size(width: image.width, height: image.height))
    }

    func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
    }
}

import CSDL2
import FFmpegKit
import Foundation

extension PlayerWindow {
    /// Screenshots are numbered from 1 to this, in the current directory (mpv's `mpv-shotNNNN`).
    static let maxScreenshots = 9999

    /// The pixels of the last scene, as drawn now (drawn again into the back buffer and read
    /// before it is shown, since a presented buffer's content is undefined).
    public func readPixels() throws(WindowError) -> RGBAImage {
        try capture(lastScene ?? WindowScene())
    }

    /// Draws `scene` into the back buffer and reads it back (`SDL_RenderReadPixels`) without showing it.
    public func capture(_ scene: WindowScene) throws(WindowError) -> RGBAImage {
        let size = outputSize
        guard size.width > 0, size.height > 0 else { throw WindowError.sdl("the window is closed") }
        let now = clock.now()
        overlay.observe(scene, now: now)
        let layout = scene.showOverlays ? overlay.layout(scene, size: size, now: now) : nil
        compose(scene, size: size, layout: layout)
        picturesDrawn.removeAll(keepingCapacity: true)  // read back, not shown: no drawing delay to learn
        dirty = true
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = pixels.withUnsafeMutableBytes {
            SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_RGBA32.rawValue, $0.baseAddress, Int32(size.width * 4))
        }
        guard status == 0 else { throw WindowError.sdl("SDL_RenderReadPixels: \(sdlError())") }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// Saves the pictures of the last scene, without overlays, as `tandem-shot-NNNN.png` in
    /// `directory` (the current one by default); returns the path.
    @discardableResult
    public func saveScreenshot(in directory: String = FileManager.default.currentDirectoryPath) throws(WindowError) -> String {
        var scene = lastScene ?? WindowScene()
        scene.showOverlays = false
        let image = try capture(scene)
        let files = FileManager.default
        guard let path = (1...Self.maxScreenshots).lazy
            .map({ (directory as NSString).appendingPathComponent(String(format: "tandem-shot-%04d.png", $0)) })
            .first(where: { !files.fileExists(atPath: $0) }) else {
            throw WindowError.sdl("\(directory): \(Self.maxScreenshots) screenshots already")
        }
        let png: [UInt8]
        do { png = try image.pngData() } catch { throw WindowError.sdl("encoding \(path): \(error)") }
        guard files.createFile(atPath: path, contents: Data(png)) else { throw WindowError.sdl("\(path): cannot write") }
        return path
    }
}

import CSDL2
import FFmpegKit

extension PlayerWindow {
    /// Draws `scene` into the back buffer (not shown yet): pictures, or posters where a sink has no
    /// picture, side by side during a slide; then the overlays of `layout`.
    func compose(_ scene: WindowScene, size: DisplayGeometry.Size, layout: OverlayRenderer.Layout?) {
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        let slide = min(max(scene.slide.isFinite ? scene.slide : 0, -1), 1)
        let width = Double(size.width)
        var shown: Set<ObjectIdentifier> = []
        // A cube transition squeezes each picture into its face instead of moving it (CubeFaces).
        let cube = scene.transition == .cube && slide != 0 ? CubeFaces(slide: slide, width: size.width) : nil
        drawPicture(scene.primary, poster: scene.poster, slot: 0, offset: cube == nil ? Int((-slide * width).rounded()) : 0,
                    size: size, face: cube?.primary)
        if let sink = scene.primary { shown.insert(ObjectIdentifier(sink)) }
        if slide != 0, scene.secondary != nil || scene.secondaryPoster != nil {
            let offset = slide > 0 ? (1 - slide) * width : (-1 - slide) * width
            drawPicture(scene.secondary, poster: scene.secondaryPoster, slot: 1, offset: cube == nil ? Int(offset.rounded()) : 0,
                        size: size, face: cube?.secondary)
        }
        if let sink = scene.secondary { shown.insert(ObjectIdentifier(sink)) }
        // Textures of sinks the scene no longer holds go now (a story player that was closed).
        for (id, entry) in videoTextures where !shown.contains(id) {
            entry.texture.destroy()
            videoTextures[id] = nil
        }
        if let layout { overlay.draw(layout) }
        if layout != nil, let chat = scene.chatLine { drawChatLine(chat, size: size) }
    }

    /// One picture, letterboxed in the window and moved `offset` pixels to the right.
    private func drawPicture(_ sink: WindowVideoSink?, poster: RGBAImage?, slot: Int, offset: Int,
                             size: DisplayGeometry.Size, face: CubeFaces.Face? = nil) {
        if let sink, let picture = sink.latest() {
            let id = ObjectIdentifier(sink)
            let texture = videoTextures[id]?.texture ?? VideoTexture(renderer: renderer)
            videoTextures[id] = (sink, texture)
            let previous = texture.generation
            do {
                try texture.upload(picture)
                if previous != picture.generation {
                    picturesDrawn.append((sink, picture))
                    statistics.shownPictures += 1
                    if let previous, picture.generation > previous + 1 { statistics.skippedPictures += Int(picture.generation - previous - 1) }
                }
            } catch {
                if !reportedUploadError { logger.error("\(error)") }
                reportedUploadError = true
            }
            if let t = texture.texture {
                copy(t, source: texture.sourceRect, geometry: texture.geometry(rotation: sink.rotation), offset: offset, size: size,
                     face: face)
                return
            }
        }
        guard let poster else { return }
        if posterTextures[slot]?.image != poster {
            posterTextures[slot]?.destroy()
            do {
                posterTextures[slot] = try ImageTexture(image: poster, renderer: renderer)
            } catch {
                posterTextures[slot] = nil
                logger.error("poster: \(error)")
            }
        }
        if let p = posterTextures[slot], let t = p.texture {
            copy(t, source: nil, geometry: p.geometry, offset: offset, size: size, face: face)
        }
    }

    private func copy(_ texture: OpaquePointer, source: SDL_Rect?, geometry: DisplayGeometry, offset: Int, size: DisplayGeometry.Size,
                      face: CubeFaces.Face? = nil) {
        let r = geometry.copyRect(in: size)
        var rect = SDL_Rect(x: Int32(r.x + offset), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
        if let face { rect = face.squeeze(rect, windowWidth: size.width) }
        defer { if let face { shade(face, height: size.height) } }
        let flip: SDL_RendererFlip = switch geometry.flip {
        case .none: SDL_FLIP_NONE
        case .horizontal: SDL_FLIP_HORIZONTAL
        case .vertical: SDL_FLIP_VERTICAL
        }
        if var source {
            SDL_RenderCopyEx(renderer, texture, &source, &rect, geometry.angle, nil, flip)
        } else {
            SDL_RenderCopyEx(renderer, texture, nil, &rect, geometry.angle, nil, flip)
        }
    }
}

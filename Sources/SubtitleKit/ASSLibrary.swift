import CLibass

/// Owns one libass library, renderer and track. libass objects belong to one thread at a time; the
/// ``SubtitleCompositor`` that owns this uses it from the presentation thread only.
///
/// The track holds exactly the events shown at the time asked for: cues go in when they become
/// active and the track is rebuilt (``ass_flush_events``) when the set changes, so memory stays
/// that of the subtitles on screen however long the film. Glyphs and bitmaps stay cached in the
/// renderer across rebuilds.
final class ASSLibrary {
    /// libass's cache limits (glyphs, bitmap megabytes): its defaults suit a player; named here so
    /// the memory a renderer may hold is visible.
    static let glyphCacheLimit: Int32 = 0
    static let bitmapCacheMegabytes: Int32 = 0

    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private var track: UnsafeMutablePointer<ASS_Track>
    private var trackKey: SubtitleKeyedHeader?
    private var eventIDs: [Int] = []
    private var frameSize = (width: 0, height: 0)

    init() {
        guard let library = ass_library_init() else { fatalError("ass_library_init: out of memory") }
        // Before the renderer: it reports its version and shaper at start-up.
        tandem_ass_set_quiet_messages(library)
        guard let renderer = ass_renderer_init(library) else { fatalError("ass_renderer_init: out of memory") }
        guard let track = ass_new_track(library) else { fatalError("ass_new_track: out of memory") }
        self.library = library
        self.renderer = renderer
        self.track = track
        // As ffmpeg's `subtitles` filter: fontconfig's default font, fonts found on the system.
        ass_set_fonts(renderer, nil, nil, Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        ass_set_cache_limits(renderer, Self.glyphCacheLimit, Self.bitmapCacheMegabytes)
        ass_set_check_readorder(track, 0)
    }

    deinit {
        ass_free_track(track)
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// Renders `events` (ASS lines with their times in milliseconds) at `milliseconds` on a
    /// `width` × `height` picture; `visit` sees each libass image (valid only during the call).
    func render(_ events: [(id: Int, start: Int64, duration: Int64, lines: [String])], header: SubtitleKeyedHeader,
                at milliseconds: Int64, width: Int, height: Int, sampleAspect: Double,
                _ visit: (UnsafePointer<ASS_Image>) -> Void) {
        if trackKey != header {
            ass_free_track(track)
            guard let fresh = ass_new_track(library) else { fatalError("ass_new_track: out of memory") }
            track = fresh
            ass_set_check_readorder(track, 0)
            if var bytes = header.header.map({ Array($0.utf8) }), !bytes.isEmpty {
                bytes.withUnsafeMutableBufferPointer { b in
                    b.withMemoryRebound(to: CChar.self) { ass_process_codec_private(track, $0.baseAddress, Int32($0.count)) }
                }
            }
            trackKey = header
            eventIDs = []
        }
        let ids = events.map(\.id)
        if ids != eventIDs {
            ass_flush_events(track)
            for event in events {
                for line in event.lines {
                    var bytes = Array(line.utf8)
                    bytes.withUnsafeMutableBufferPointer { b in
                        b.withMemoryRebound(to: CChar.self) {
                            ass_process_chunk(track, $0.baseAddress, Int32($0.count), event.start, event.duration)
                        }
                    }
                }
            }
            eventIDs = ids
        }
        if frameSize != (width, height) {
            ass_set_frame_size(renderer, Int32(width), Int32(height))
            ass_set_storage_size(renderer, Int32(width), Int32(height))
            frameSize = (width, height)
        }
        // Wide or narrow stored pixels (anamorphic video): glyphs keep their shape once displayed.
        ass_set_pixel_aspect(renderer, sampleAspect > 0 ? sampleAspect : 1)
        var changed: Int32 = 0
        var image = ass_render_frame(renderer, track, milliseconds, &changed)
        while let current = image {
            visit(UnsafePointer(current))
            image = current.pointee.next
        }
    }
}

/// A track's identity and header: libass's styles are rebuilt when either changes.
struct SubtitleKeyedHeader: Equatable {
    var id: Int
    var header: String?
}

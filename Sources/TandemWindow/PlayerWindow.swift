import CSDL2
import Foundation
import Logging
import PlayerCore

/// An SDL window with its renderer, the textures of the pictures it shows and its overlays.
///
/// Isolated to ``WindowActor``: every SDL video call is made on the one thread that actor runs on
/// (a dedicated thread on Linux, the main thread on Darwin). This object is the one owner of the SDL
/// window, renderer, textures and font: ``close()`` frees them (textures before the renderer),
/// then releases SDL_ttf and SDL's video subsystem.
///
/// ``run(controller:)`` is the event loop: it polls SDL events (keys become ``WindowCommand``s
/// for the controller), asks the controller for a ``WindowScene`` and renders when a picture or
/// an overlay changed; between turns it sleeps until a video sink has a new picture or the next
/// input poll, so the actor's thread stays free for other window work.
@WindowActor
public final class PlayerWindow {
    /// How often input is polled while nothing else happens: well under a frame at 60 Hz, and
    /// idle wake-ups cost next to nothing.
    nonisolated static let pollInterval: Duration = .milliseconds(5)
    /// While pictures keep coming, overlay changes (the progress bar moves a pixel many times a
    /// second on a wide window) wait for the next picture, up to this long: redrawing a full frame
    /// for them alone would double the rendering work.
    static let overlayWaitWhilePlaying = 0.25
    /// Without moving pictures (paused, audio only), overlays animate (toast fades) at up to this rate.
    static let overlayRefreshInterval = 1.0 / 30
    /// Pictures count as coming if the last one changed within this.
    static let picturesFlowingWindow = 0.25
    /// SDL video drivers that show nothing: used only when asked for by name (`SDL_VIDEODRIVER`, as tests do).
    static let invisibleDrivers: Set<String> = ["offscreen", "dummy", "evdev"]

    let window: OpaquePointer
    let renderer: OpaquePointer
    let logger: Logger
    let overlay: OverlayRenderer
    /// One texture per video sink shown, keyed by the sink's identity (the sink is kept with it so
    /// the identity cannot be reused while the entry lives).
    var videoTextures: [ObjectIdentifier: (sink: WindowVideoSink, texture: VideoTexture)] = [:]
    /// Poster textures of the primary [0] and secondary [1] slots.
    var posterTextures: [ImageTexture?] = [nil, nil]
    /// The party chat line's bar (``ChatLineOverlay``), made the first time one is drawn.
    var chatOverlay: ChatLineOverlay?
    var lastLayout: OverlayRenderer.Layout?
    var lastPictures: PictureState?
    var lastScene: WindowScene?
    /// Something invalidated what is on screen (resize, expose, fullscreen, screenshot).
    var dirty = true
    var reportedUploadError = false
    /// New pictures drawn into the back buffer, told to their sinks once it is shown.
    var picturesDrawn: [(sink: WindowVideoSink, picture: WindowVideoSink.Picture)] = []
    /// Host times of the last render and of the last picture change.
    var lastRender = -Double.infinity
    var lastPictureChange = -Double.infinity
    /// Pictures drawn and skipped so far.
    public internal(set) var statistics = WindowStatistics()
    /// The progress bar, clock and pointer hide after a moment without input while playing (the
    /// playback window; the party and story windows keep theirs).
    public private(set) var autoHidesControls = false
    public func setAutoHidesControls(_ flag: Bool) {
        autoHidesControls = flag
        if !flag { showPointer(true) }
    }
    var controls = ControlsVisibility()
    var pointerHidden = false
    /// A left-button press on the progress bar is held: motion seeks.
    var draggingBar = false
    private var running = false
    private var closed = false
    private let ttfStarted: Bool
    /// SDL's name for the renderer in use ("opengl", "opengles2", "software"…).
    public let rendererName: String
    /// The renderer waits for the display's refresh on present (SDL_RENDERER_PRESENTVSYNC granted).
    let vsync: Bool
    /// `--video-sync`: with `display-vdrop`, the refreshes are learned and the pictures aimed at them.
    let videoSync: VideoSync
    /// `glFinish` of the renderer's OpenGL context (nil for other renderers): after a present, it waits
    /// until the picture is swapped in, so the return marks the refresh it was shown on.
    let finishGL: (@convention(c) () -> Void)?
    /// The display's refreshes as learned from the presents (``RefreshLearner``); nil: none learned.
    var refresh: RefreshLearner?
    /// The first drawing probed the refresh (once per window).
    var refreshProbed = false
    let clock = MonotonicTimeSource()

    /// Opens a resizable window centred on the first display.
    /// - Parameters:
    ///   - size: the wanted content size (usually the video's display size); scaled down, aspect
    ///     kept, to fit the display's usable area.
    /// - Throws: ``WindowError/noDisplay(_:)`` when SDL's video subsystem or the window cannot
    ///   start (no `DISPLAY`, no compositor, no driver); ``WindowError/sdl(_:)`` when no renderer works.
    public init(title: String, size: DisplayGeometry.Size, fullscreen: Bool = false, videoSync: VideoSync = .audio,
                logger: Logger = Logger(label: "tandem.window")) throws(WindowError) {
        guard WindowActor.isCurrentThread else {
            throw WindowError.sdl("the window must be created on the window thread (WindowActor)")
        }
        self.logger = logger
        self.videoSync = videoSync
        // Scaled pictures are filtered bilinearly (SDL's default, nearest, looks blocky).
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        guard SDLSubsystems.start(SDL_INIT_VIDEO) else {
            throw WindowError.noDisplay(Self.displayProblem())
        }
        // SDL falls back to its offscreen driver when no display answers: a window nobody sees.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        let requested = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] ?? ""
        if Self.invisibleDrivers.contains(driver), !requested.split(separator: ",").contains(Substring(driver)) {
            SDLSubsystems.stop(SDL_INIT_VIDEO)
            throw WindowError.noDisplay("no X11 or Wayland display answered (SDL fell back to \(driver))"
                                        + (ProcessInfo.processInfo.environment["DISPLAY"] == nil ? ", DISPLAY is not set" : ""))
        }
        var bounds = SDL_Rect()
        let usable = SDL_GetDisplayUsableBounds(0, &bounds) == 0
            ? DisplayGeometry.Size(width: Int(bounds.w), height: Int(bounds.h)) : nil
        let fitted = DisplayGeometry(frameSize: size).windowSize(fittingIn: usable)
        // Shown by the first render or run, so a failure in between (a file that does not open) shows nothing.
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_HIDDEN.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        guard let window = SDL_CreateWindow(title, tandem_sdl_windowpos_centered(), tandem_sdl_windowpos_centered(),
                                            Int32(max(fitted.width, 1)), Int32(max(fitted.height, 1)), flags) else {
            let problem = Self.displayProblem()
            SDLSubsystems.stop(SDL_INIT_VIDEO)
            throw WindowError.noDisplay(problem)
        }
        let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
        guard let renderer = SDL_CreateRenderer(window, -1, accelerated)
                ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            let problem = sdlError()
            SDL_DestroyWindow(window)
            SDLSubsystems.stop(SDL_INIT_VIDEO)
            throw WindowError.sdl("no SDL renderer: \(problem)")
        }
        self.window = window
        self.renderer = renderer
        ttfStarted = TTF_Init() == 0
        if !ttfStarted { logger.warning("SDL_ttf: \(sdlError()); overlays are drawn without text") }
        overlay = OverlayRenderer(renderer: renderer, fontPath: ttfStarted ? OverlayRenderer.defaultFontPath : nil, logger: logger)
        var info = SDL_RendererInfo()
        rendererName = SDL_GetRendererInfo(renderer, &info) == 0 ? info.name.map { String(cString: $0) } ?? "?" : "?"
        vsync = info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue != 0
        finishGL = Self.glFinish(rendererName)
        logger.debug("SDL renderer \(rendererName), video driver \(String(cString: SDL_GetCurrentVideoDriver()))")
    }

    isolated deinit { close() }

    /// The drawable size in pixels (differs from the window size on high-DPI displays).
    public var outputSize: DisplayGeometry.Size {
        guard !closed else { return DisplayGeometry.Size(width: 0, height: 0) }
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return DisplayGeometry.Size(width: Int(w), height: Int(h))
    }

    public var isFullscreen: Bool {
        !closed && SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
    }

    /// Switches between a window and the whole screen (desktop resolution, no mode change).
    public func toggleFullscreen() {
        guard !closed else { return }
        SDL_SetWindowFullscreen(window, isFullscreen ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue)
        dirty = true
    }

    // MARK: Event loop

    /// Runs the window until `.quit` (a key, closing the window, SIGINT), ``stop()`` or the task's
    /// cancellation. Returns with the window still open: ``close()`` it after.
    public func run(controller: any WindowController) async {
        guard !closed else { return }
        let wakeup = RenderWakeup()
        let interval = Self.pollInterval
        let ticker = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                wakeup.wake()
            }
        }
        running = true
        dirty = true
        SDL_ShowWindow(window)
        defer {
            ticker.cancel()
            wakeup.finish()
            for (sink, _) in videoTextures.values { sink.attach(nil) }
        }
        turn(controller, wakeup: wakeup)
        for await _ in wakeup.stream {
            guard running, !Task.isCancelled else { break }
            turn(controller, wakeup: wakeup)
            if !running { break }
        }
        running = false
    }

    /// Ends ``run(controller:)`` at its next turn.
    public func stop() { running = false }

    private func turn(_ controller: any WindowController, wakeup: RenderWakeup) {
        pumpEvents(controller)
        guard running, !closed else { return }
        let scene = controller.scene(in: self)
        scene.primary?.attach(wakeup)
        scene.secondary?.attach(wakeup)
        draw(scene, force: false)
    }

    private func pumpEvents(_ controller: any WindowController) {
        var event = SDL_Event()
        while running, SDL_PollEvent(&event) != 0 {
            if routeToInterceptor(event, controller: controller) { continue }
            switch event.type {
            case SDL_QUIT.rawValue:
                controller.handle(.quit, window: self)
                running = false
            case SDL_KEYDOWN.rawValue:
                let key = event.key.keysym
                controls.input(at: clock.now())
                if let handler = controller as? any PlaybackInputHandling,
                   let playbackKey = PlaybackKey.key(keycode: key.sym, modifiers: key.mod, isRepeat: event.key.repeat != 0) {
                    handler.handle(playbackKey, window: self)
                    continue
                }
                if let command = KeyBinding.command(keycode: key.sym, modifiers: key.mod, isRepeat: event.key.repeat != 0) {
                    controller.handle(command, window: self)
                    if command == .quit { running = false }
                }
            case SDL_MOUSEMOTION.rawValue, SDL_MOUSEBUTTONDOWN.rawValue, SDL_MOUSEBUTTONUP.rawValue, SDL_MOUSEWHEEL.rawValue:
                controls.input(at: clock.now())
                if let handler = controller as? any PlaybackInputHandling { handleMouse(event, handler: handler) }
            case SDL_WINDOWEVENT.rawValue, SDL_RENDER_TARGETS_RESET.rawValue:
                dirty = true
            case SDL_RENDER_DEVICE_RESET.rawValue:
                // The renderer lost every texture: make them again from the pictures.
                releaseTextures()
                dirty = true
            default:
                break
            }
        }
    }

    // MARK: Rendering

    /// Draws `scene` and shows it now, whether or not anything changed.
    public func render(_ scene: WindowScene) {
        guard !closed else { return }
        SDL_ShowWindow(window)
        draw(scene, force: true)
    }

    private func draw(_ scene: WindowScene, force: Bool) {
        let now = clock.now()
        overlay.observe(scene, now: now)
        let size = outputSize
        let showControls = !autoHidesControls || controls.visible(at: now, paused: scene.paused)
        if autoHidesControls { showPointer(showControls) }
        let layout = scene.showOverlays ? overlay.layout(scene, size: size, now: now, controls: showControls) : nil
        let pictures = PictureState(scene, size: size)
        lastScene = scene
        let picturesChanged = pictures != lastPictures
        if picturesChanged { lastPictureChange = now }
        let flowing = now - lastPictureChange < Self.picturesFlowingWindow
        let overlayDue = layout != lastLayout
            && now - lastRender >= (flowing ? Self.overlayWaitWhilePlaying : Self.overlayRefreshInterval)
        guard force || dirty || picturesChanged || overlayDue else { return }
        if !refreshProbed { probeRefreshes(scene, size: size, layout: layout) }
        compose(scene, size: size, layout: layout)
        let presentedAt = clock.now()
        SDL_RenderPresent(renderer)
        let shownAt = presented()
        let grid = refresh?.grid
        for (sink, picture) in picturesDrawn {
            if sink.shown(picture, presentedAt: presentedAt, at: shownAt) { statistics.delayedPictures += 1 }
            sink.setRefreshGrid(grid)
        }
        picturesDrawn.removeAll(keepingCapacity: true)
        lastLayout = layout
        lastPictures = pictures
        lastRender = now
        dirty = false
    }

    /// Frees everything. Idempotent; the window cannot be used after.
    public func close() {
        guard !closed else { return }
        running = false
        releaseTextures()
        overlay.destroy()
        chatOverlay?.destroy()
        chatOverlay = nil
        closed = true
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        if ttfStarted { TTF_Quit() }
        SDLSubsystems.stop(SDL_INIT_VIDEO)
    }

    func releaseTextures() {
        for (_, texture) in videoTextures.values { texture.destroy() }
        videoTextures.removeAll()
        for poster in posterTextures { poster?.destroy() }
        posterTextures = [nil, nil]
    }

    /// SDL's reason, with the usual cause spelled out.
    private static func displayProblem() -> String {
        var reason = sdlError()
        let driver = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] ?? ""
        if ProcessInfo.processInfo.environment["DISPLAY"] == nil, ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil,
           driver.isEmpty || driver == "x11" || driver == "wayland" {
            reason += ", DISPLAY is not set"
        }
        return reason
    }
}

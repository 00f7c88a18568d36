import CSDL2
import PlayerCore

extension PlayerWindow {
    /// Once, at the first drawing: presents the scene ``RefreshLearner/probePresents`` times back to
    /// back, and keeps the display's refresh grid when its refresh paced them. Nothing unless
    /// `--video-sync=display-vdrop`, the renderer has vsync and SDL gives a rate for the display.
    func probeRefreshes(_ scene: WindowScene, size: DisplayGeometry.Size, layout: OverlayRenderer.Layout?) {
        refreshProbed = true
        guard videoSync == .displayVdrop, vsync, let period = nominalRefreshPeriod else { return }
        var returns: [Double] = []
        for _ in 0..<RefreshLearner.probePresents {
            compose(scene, size: size, layout: layout)
            SDL_RenderPresent(renderer)
            finishGL?()
            returns.append(clock.now())
        }
        let learner = RefreshLearner(probe: returns, nominalPeriod: period)
        refresh = learner.grid == nil ? nil : learner
        statistics.refreshPeriod = learner.grid?.period
        logger.debug("display refresh \(learner.grid.map { "\(1 / $0.period) Hz, pictures placed on it" } ?? "not pacing the presents: pictures placed by the clock")")
    }

    /// After a present: waits for the swap where that marks the refresh, and lets the grid follow the
    /// return. The return time.
    func presented() -> Double {
        guard refresh != nil else { return clock.now() }
        finishGL?()
        let now = clock.now()
        refresh?.presented(returnedAt: now)
        if refresh?.grid == nil {
            refresh = nil
            statistics.refreshPeriod = nil
            logger.debug("display refresh lost: pictures placed by the clock")
        }
        return now
    }

    /// 1 / the rate SDL gives for the current mode of the window's display (nil when it gives none).
    /// (Not `SDL_GetWindowDisplayMode`: that is the mode the window would take in exclusive fullscreen.)
    var nominalRefreshPeriod: Double? {
        var mode = SDL_DisplayMode()
        let display = SDL_GetWindowDisplayIndex(window)
        guard display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0, mode.refresh_rate > 0 else { return nil }
        return 1 / Double(mode.refresh_rate)
    }

    /// `glFinish` for an OpenGL renderer (its context is current on the window's thread).
    nonisolated static func glFinish(_ rendererName: String) -> (@convention(c) () -> Void)? {
        guard rendererName.hasPrefix("opengl"), let address = SDL_GL_GetProcAddress("glFinish") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) () -> Void).self)
    }
}

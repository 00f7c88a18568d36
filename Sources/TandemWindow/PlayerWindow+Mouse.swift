import CSDL2

extension PlayerWindow {
    /// SDL_BUTTON_LMASK (a function-like macro Swift does not import): the left button's bit in a motion's state.
    nonisolated static let leftButtonMask = UInt32(1) << (UInt32(SDL_BUTTON_LEFT) - 1)

    /// A mouse event for a controller that takes them (``MouseGesture``): presses and drags on the
    /// progress bar seek, a double click toggles fullscreen, the wheel seeks.
    func handleMouse(_ event: SDL_Event, handler: any PlaybackInputHandling) {
        let size = outputSize
        var windowWidth: Int32 = 0, windowHeight: Int32 = 0
        SDL_GetWindowSize(window, &windowWidth, &windowHeight)
        // Window coordinates to output pixels (they differ on high-DPI displays).
        let scale = windowWidth > 0 ? Double(size.width) / Double(windowWidth) : 1
        func pixels(_ v: Int32) -> Int { Int(Double(v) * scale) }
        switch event.type {
        case SDL_MOUSEBUTTONDOWN.rawValue:
            guard event.button.button == UInt8(SDL_BUTTON_LEFT) else { return }
            let x = pixels(event.button.x), y = pixels(event.button.y)
            guard let gesture = MouseGesture.press(x: x, y: y, clicks: Int(event.button.clicks), width: size.width,
                                                   height: size.height, margin: OverlayRenderer.margin) else { return }
            if case .seekToFraction = gesture { draggingBar = true }
            handler.handle(gesture, window: self)
        case SDL_MOUSEMOTION.rawValue:
            guard draggingBar, event.motion.state & Self.leftButtonMask != 0 else {
                draggingBar = false
                return
            }
            let x = pixels(event.motion.x)
            handler.handle(.seekToFraction(MouseGesture.fraction(x: x, width: size.width, margin: OverlayRenderer.margin)),
                           window: self)
        case SDL_MOUSEBUTTONUP.rawValue:
            if event.button.button == UInt8(SDL_BUTTON_LEFT) { draggingBar = false }
        case SDL_MOUSEWHEEL.rawValue:
            var steps = Int(event.wheel.y)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { steps = -steps }
            if let gesture = MouseGesture.wheel(steps: steps) { handler.handle(gesture, window: self) }
        default:
            break
        }
    }

    /// Shows or hides the mouse pointer over the window (hidden while playing without input).
    func showPointer(_ visible: Bool) {
        guard pointerHidden == visible else { return }
        pointerHidden = !visible
        SDL_ShowCursor(visible ? SDL_ENABLE : SDL_DISABLE)
    }
}

import Foundation
import Testing
import TandemWindow

/// SDL is process-global (one video and one audio subsystem, environment-chosen drivers): every
/// test that starts SDL is nested in this suite, which runs them one at a time. Each test starts
/// and stops the subsystems it uses.
@Suite(.serialized) enum SDLTests {
    /// Headless drivers: "offscreen" has a renderer and `SDL_RenderReadPixels`; audio goes nowhere
    /// unless a test picks the disk driver.
    static func useHeadlessDrivers() {
        setenv("SDL_VIDEODRIVER", "offscreen", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
    }
}

/// Polls `condition` (on the window actor) every 10 ms until it holds or `timeout` passes: for states
/// that other threads reach; no assertion is made on how long it took.
@WindowActor
func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

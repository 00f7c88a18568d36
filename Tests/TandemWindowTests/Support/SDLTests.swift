import Foundation
import Testing
import TandemWindow
import TestSupport

/// SDL is process-global (one video and one audio subsystem, environment-chosen drivers): every
/// test that starts SDL is nested in this suite, which runs them one at a time, each holding
/// ``AsyncLock/sdl`` (as does any other target's test that starts SDL, e.g. TandemAppTests'
/// SyncplayWindowChatTests). Each test starts and stops the subsystems it uses.
@Suite(.serialized, .holdingSDL) enum SDLTests {
    /// Headless drivers: "offscreen" has a renderer and `SDL_RenderReadPixels`; audio goes nowhere
    /// unless a test picks the disk driver.
    static func useHeadlessDrivers() {
        setenv("SDL_VIDEODRIVER", "offscreen", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
    }
}

/// Runs each test of the suite it is given to (and of the suites in it) holding ``AsyncLock/sdl``.
struct HoldingSDL: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await AsyncLock.sdl.lock()
        defer { AsyncLock.sdl.unlock() }
        try await function()
    }
}

extension Trait where Self == HoldingSDL {
    /// Each test holds ``AsyncLock/sdl`` while it runs.
    static var holdingSDL: Self { HoldingSDL() }
}

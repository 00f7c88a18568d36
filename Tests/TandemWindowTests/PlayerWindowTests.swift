import CSDL2
import FFmpegKit
import Foundation
import Testing
@testable import TandemWindow

extension SDLTests {
    @WindowActor @Suite struct PlayerWindowTests {
        @Test func windowCodeRunsOnTheWindowThread() throws {
            SDLTests.useHeadlessDrivers()
            #expect(WindowActor.isCurrentThread)
            let window = try PlayerWindow(title: "test", size: .init(width: 320, height: 240))
            defer { window.close() }
            #expect(window.outputSize == .init(width: 320, height: 240))
        }
    }
}

import FFmpegKit
import PlayerCore
import Testing
@testable import TandemWindow

struct WindowVideoSinkTests {
    @Test func keepsTheNewestPictureWithAGeneration() throws {
        let sink = WindowVideoSink(rotation: -90)
        #expect(sink.latest() == nil && sink.generation == 0 && sink.rotation == -90)
        sink.store(TestMedia.solidFrame(width: 16, height: 16, y: 50, u: 128, v: 128), position: 0)
        sink.store(TestMedia.solidFrame(width: 16, height: 16, y: 200, u: 128, v: 128), position: 0.04)
        let picture = try #require(sink.latest())
        #expect(picture.generation == 2 && sink.generation == 2)
        #expect(picture.position == 0.04)
        #expect(picture.frame.pointer.pointee.data.0?.pointee == 200)
    }

    @Test func theStoredPictureOutlivesThePresentersFrame() throws {
        // The presenter unrefs or reuses its frame after present returns: the sink holds its own reference.
        let presenter = TestMedia.solidFrame(width: 8, height: 8, y: 77, u: 128, v: 128)
        let sink = WindowVideoSink()
        sink.store(presenter.clone(), position: 1)
        presenter.unref()
        let picture = try #require(sink.latest())
        #expect(picture.frame.width == 8 && picture.frame.pointer.pointee.data.0?.pointee == 77)
    }

    @Test func presentingWakesTheRenderLoop() async {
        let sink = WindowVideoSink()
        let wakeup = RenderWakeup()
        sink.attach(wakeup)
        sink.store(TestMedia.solidFrame(width: 2, height: 2, y: 16, u: 128, v: 128), position: 0)
        var iterator = wakeup.stream.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func theWindowsDrawingDelayIsLearnedFromWhatItShowed() throws {
        let sink = WindowVideoSink()
        #expect(sink.presentationDelay == 0)
        sink.store(TestMedia.solidFrame(width: 2, height: 2, y: 16, u: 128, v: 128), position: 0)
        let picture = try #require(sink.latest())
        sink.shown(picture, presentedAt: picture.storedAt + 0.006, at: picture.storedAt + 0.006)
        #expect(abs(sink.presentationDelay - 0.006) < 1e-9)  // the first drawing is the estimate
        sink.shown(picture, presentedAt: picture.storedAt + 0.2, at: picture.storedAt + 0.2)     // waited on something else: not a drawing
        #expect(abs(sink.presentationDelay - 0.006) < 1e-9)
        for _ in 0..<200 { sink.shown(picture, presentedAt: picture.storedAt + 0.004, at: picture.storedAt + 0.004) }
        #expect(abs(sink.presentationDelay - 0.004) < 1e-5)  // follows the drawings, smoothed
    }

    /// On a display whose refreshes the window knows, the drawing counts to the present call (the wait
    /// for the refresh is the presenter's aim), and a picture shown a refresh after its aim is delayed.
    @Test func withARefreshGridTheDrawingEndsAtThePresentCall() throws {
        let sink = WindowVideoSink()
        sink.store(TestMedia.solidFrame(width: 2, height: 2, y: 16, u: 128, v: 128), position: 0)
        let picture = try #require(sink.latest())
        let period = 1.0 / 60
        // A refresh 5 ms after the picture came: handed over for it.
        sink.setRefreshGrid(RefreshGrid(period: period, anchor: picture.storedAt + 0.005))
        #expect(sink.refreshGrid?.period == period)
        let onTime = sink.shown(picture, presentedAt: picture.storedAt + 0.003, at: picture.storedAt + 0.005)
        #expect(abs(sink.presentationDelay - 0.003) < 1e-9)
        #expect(!onTime)
        // The same picture's present returning a refresh later: the one before it was shown again.
        #expect(sink.shown(picture, presentedAt: picture.storedAt + 0.003, at: picture.storedAt + 0.005 + period))
        sink.setRefreshGrid(nil)
        #expect(sink.refreshGrid == nil)
    }

    @Test func finishAndClear() {
        let sink = WindowVideoSink()
        sink.store(TestMedia.solidFrame(width: 2, height: 2, y: 16, u: 128, v: 128), position: 0)
        #expect(!sink.isFinished)
        sink.finish()
        #expect(sink.isFinished)
        sink.clear()
        #expect(sink.latest() == nil)
        #expect(sink.generation == 2)  // a cleared slot is a change the window redraws
    }
}

import CFFmpeg
import FFmpegKit
import Testing
@testable import TandemWindow

extension SDLTests {
    /// What the window shows is the decoded picture: rendered 1:1 with overlays off, read back, and
    /// compared with libswscale's RGB conversion of the same frame, with SDL's matrix and the
    /// renderer's chroma upsampling.
    @WindowActor @Suite struct VideoTextureTests {
        static let minimumPSNR = 40.0

        @Test(arguments: [("h264-aac.mp4", "yuv420p"), ("odd-dims-420.webm", "yuv420p"), ("10bit.mkv", "yuv420p10le"),
                          ("odd-dims.mp4", "yuv444p")])
        func theWindowShowsTheDecodedPicture(file: String, pixelFormat: String) throws {
            SDLTests.useHeadlessDrivers()
            let decoded = try TestMedia.videoFrame(file, index: 12)
            #expect(decoded.pixelFormatName == pixelFormat)
            let size = DisplayGeometry.Size(width: decoded.width, height: decoded.height)
            let window = try PlayerWindow(title: file, size: size)
            defer { window.close() }
            #expect(window.outputSize == size)
            let sink = WindowVideoSink()
            sink.store(decoded.clone(), position: 0)
            let shown = try window.capture(WindowScene(primary: sink, showOverlays: false))

            // Other formats are shown through libswscale's yuv420p conversion, by design.
            let direct = pixelFormat == "yuv420p"
            let frame = direct ? decoded : try ImageScaler(pixelFormat: AV_PIX_FMT_YUV420P).convert(decoded)
            let mode = direct ? YUVColorMode(frame: decoded.pointer) : YUVColorMode(convertedFrom: decoded.pointer)
            #expect(mode == .bt601)  // unlabelled SD clips
            let chroma = TestMedia.chromaUpsampling(renderer: window.rendererName)
            let reference = try TestMedia.referenceRGBA(frame, mode: mode, chroma: chroma)
            let psnr = TestMedia.psnr(shown, reference)
            #expect(psnr >= Self.minimumPSNR, "\(file) on \(window.rendererName): \(psnr) dB")
            // A wrong matrix, range or plane order would be far off.
            let wrongMatrix = try TestMedia.referenceRGBA(frame, mode: .bt709, chroma: chroma)
            #expect(TestMedia.psnr(shown, wrongMatrix) < psnr - 3)
        }

        @Test func aNewPictureReplacesTheTextureAndANewSizeRecreatesIt() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "sizes", size: .init(width: 64, height: 64))
            defer { window.close() }
            let sink = WindowVideoSink()
            let scene = WindowScene(primary: sink, showOverlays: false)
            // Y=235 white, then a smaller Y=16 black picture: both fill the square window.
            sink.store(TestMedia.solidFrame(width: 64, height: 64, y: 235, u: 128, v: 128), position: 0)
            let white = try window.capture(scene)
            sink.store(TestMedia.solidFrame(width: 33, height: 33, y: 16, u: 128, v: 128), position: 0.04)
            let black = try window.capture(scene)
            #expect(white.rgb(x: 32, y: 32) == (255, 255, 255))
            #expect(black.rgb(x: 32, y: 32) == (0, 0, 0))
            #expect(black.rgb(x: 1, y: 62) == (0, 0, 0))
            #expect(window.statistics == WindowStatistics(shownPictures: 2, skippedPictures: 0))
            // Two pictures before the next render: the first is never drawn.
            sink.store(TestMedia.solidFrame(width: 64, height: 64, y: 100, u: 128, v: 128), position: 0.08)
            sink.store(TestMedia.solidFrame(width: 64, height: 64, y: 120, u: 128, v: 128), position: 0.12)
            _ = try window.capture(scene)
            #expect(window.statistics == WindowStatistics(shownPictures: 3, skippedPictures: 1))
        }
    }
}

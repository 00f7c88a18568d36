import FFmpegKit
import Testing
import TandemWindow

struct DisplayGeometryTests {
    typealias Size = DisplayGeometry.Size
    typealias Rect = DisplayGeometry.Rect

    @Test func squarePixelsKeepTheFrameSize() {
        let g = DisplayGeometry(frameSize: Size(width: 320, height: 240))
        #expect(g.displaySize == Size(width: 320, height: 240))
        #expect(g.angle == 0 && g.flip == .none && !g.isSideways)
    }

    @Test func sampleAspectRatioStretchesTheWidth() {
        // PAL 4:3 DVD: 720x576 at 16:15 shows as 768x576.
        let pal = DisplayGeometry(frameSize: Size(width: 720, height: 576), sampleAspect: Rational(16, 15))
        #expect(pal.displaySize == Size(width: 768, height: 576))
        // Anamorphic 16:9 PAL: 720x576 at 64:45 shows as 1024x576.
        let wide = DisplayGeometry(frameSize: Size(width: 720, height: 576), sampleAspect: Rational(64, 45))
        #expect(wide.displaySize == Size(width: 1024, height: 576))
        // Tall pixels narrow the width.
        let tall = DisplayGeometry(frameSize: Size(width: 100, height: 100), sampleAspect: Rational(1, 2))
        #expect(tall.displaySize == Size(width: 50, height: 100))
    }

    @Test(arguments: [Rational(0, 1), Rational(0, 0), Rational(-1, 2), Rational(3, 0)])
    func unknownSampleAspectMeansSquare(sar: Rational) {
        let g = DisplayGeometry(frameSize: Size(width: 640, height: 480), sampleAspect: sar)
        #expect(g.displaySize == Size(width: 640, height: 480))
        #expect(g.sampleAspect == Rational(1, 1))
    }

    @Test func quarterTurnsSwapWidthAndHeight() {
        let frame = Size(width: 1920, height: 1080)
        // ffprobe's "rotation=-90" (a phone held upright) turns the picture clockwise: SDL angle 90.
        let cw = DisplayGeometry(frameSize: frame, rotation: -90)
        #expect(cw.displaySize == Size(width: 1080, height: 1920))
        #expect(cw.angle == 90 && cw.isSideways)
        let ccw = DisplayGeometry(frameSize: frame, rotation: 90)
        #expect(ccw.displaySize == Size(width: 1080, height: 1920))
        #expect(ccw.angle == 270)
        let flipped = DisplayGeometry(frameSize: frame, rotation: 180)
        #expect(flipped.displaySize == frame)
        #expect(flipped.angle == 180 && !flipped.isSideways)
    }

    @Test(arguments: [(44.0, 0.0), (46.0, 270.0), (-134.0, 90.0), (-136.0, 180.0), (270.0, 90.0), (-270.0, 270.0),
                      (360.0, 0.0), (721.0, 0.0), (Double.nan, 0.0)])
    func otherRotationsRoundToTheNearestQuarterTurn(rotation: Double, angle: Double) {
        #expect(DisplayGeometry(frameSize: Size(width: 4, height: 2), rotation: rotation).angle == angle)
    }

    @Test func sampleAspectAppliesBeforeRotation() {
        let g = DisplayGeometry(frameSize: Size(width: 720, height: 576), sampleAspect: Rational(16, 15), rotation: 90)
        #expect(g.displaySize == Size(width: 576, height: 768))
        #expect(abs(g.aspectRatio - 576.0 / 768.0) < 1e-9)
    }

    @Test func wideVideoIsLetterboxedInASquareWindow() {
        let g = DisplayGeometry(frameSize: Size(width: 1920, height: 1080))
        #expect(g.destination(in: Size(width: 800, height: 800)) == Rect(x: 0, y: 175, width: 800, height: 450))
    }

    @Test func tallVideoIsPillarboxedInAWideWindow() {
        let g = DisplayGeometry(frameSize: Size(width: 1920, height: 1080), rotation: -90)
        #expect(g.destination(in: Size(width: 1280, height: 720)) == Rect(x: 437, y: 0, width: 405, height: 720))
        // SDL rotates the copy about its centre: the rect handed over is the unrotated one.
        #expect(g.copyRect(in: Size(width: 1280, height: 720)) == Rect(x: 280, y: 157, width: 720, height: 405))
    }

    @Test func exactFitFillsTheWindow() {
        let g = DisplayGeometry(frameSize: Size(width: 161, height: 97))
        #expect(g.destination(in: Size(width: 161, height: 97)) == Rect(x: 0, y: 0, width: 161, height: 97))
        #expect(g.destination(in: Size(width: 322, height: 194)) == Rect(x: 0, y: 0, width: 322, height: 194))
    }

    @Test func windowSizeIsCappedToTheScreenKeepingTheAspect() {
        let g = DisplayGeometry(frameSize: Size(width: 3840, height: 2160))
        #expect(g.windowSize(fittingIn: Size(width: 1920, height: 1040)) == Size(width: 1849, height: 1040))
        #expect(g.windowSize(fittingIn: nil) == Size(width: 3840, height: 2160))
        let small = DisplayGeometry(frameSize: Size(width: 320, height: 240))
        #expect(small.windowSize(fittingIn: Size(width: 1920, height: 1080)) == Size(width: 320, height: 240))
    }

    @Test func emptyWindowGetsAnEmptyRect() {
        let g = DisplayGeometry(frameSize: Size(width: 320, height: 240))
        #expect(g.destination(in: Size(width: 0, height: 0)) == Rect(x: 0, y: 0, width: 0, height: 0))
    }
}

extension DisplayGeometryTests {
    @Test func probingAFileGivesItsVideoGeometry() throws {
        let video = try #require(DisplayGeometry(probing: TestMedia.path("odd-dims.mp4")))
        #expect(video.displaySize == Size(width: 161, height: 97))
        #expect(DisplayGeometry(probing: TestMedia.path("audio-only.m4a")) == nil)
        #expect(DisplayGeometry(probing: TestMedia.path("no-such-file.mp4")) == nil)
        #expect(DisplayGeometry(probing: TestMedia.path("h264-aac.mp4"), streamIndex: 1) == nil)  // the audio stream
    }
}

@Suite struct MinimumWindowSizeTests {
    @Test func smallPicturesAreScaledUpLargeOnesKept() {
        #expect(DisplayGeometry.Size(width: 160, height: 120).scaledUp() == .init(width: 640, height: 480))
        #expect(DisplayGeometry.Size(width: 161, height: 97).scaledUp() == .init(width: 640, height: 386))
        #expect(DisplayGeometry.Size(width: 1920, height: 1080).scaledUp() == .init(width: 1920, height: 1080))
        #expect(DisplayGeometry.Size(width: 0, height: 0).scaledUp() == .init(width: 0, height: 0))
    }
}

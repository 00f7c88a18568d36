import Testing
import TandemWindow
@testable import TandemCLI

/// `--video-sync` as play, host, join and stories parse it (mpv's names).
@Suite struct PictureOptionsTests {
    @Test func videoSyncIsMPVsOption() throws {
        #expect(try PlayCommand.parse(["a.mp4"]).options.videoSync == .audio)
        #expect(try PlayCommand.parse(["a.mp4", "--video-sync", "display-vdrop"]).options.videoSync == .displayVdrop)
        #expect(try HostCommand.parse(["a.mp4", "--video-sync=display-vdrop"]).options().videoSync == .displayVdrop)
        #expect(try JoinCommand.parse(["tandem+insecure://127.0.0.1:9/party/p?key=k", "--video-sync", "audio"]).options().videoSync == .audio)
        #expect(try StoriesCommand.parse(["a.mp4", "--video-sync", "display-vdrop"]).pictures.videoSync == .displayVdrop)
    }

    @Test func anotherModeIsRefusedWithTheKnownOnes() {
        #expect {
            try PlayCommand.parse(["a.mp4", "--video-sync", "display-resample"])
        } throws: { error in
            let message = PlayCommand.message(for: error)
            return message.contains("display-resample") && message.contains("audio") && message.contains("display-vdrop")
        }
    }
}

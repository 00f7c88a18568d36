import Testing
import YtdlKit

/// Which arguments go through yt-dlp: http(s) URLs of pages; never files, media URLs or other schemes.
@Suite struct LinkKindTests {
    @Test(arguments: [
        "https://www.youtube.com/watch?v=abc", "https://vimeo.com/12345", "http://127.0.0.1:8080/page.html",
        "https://example.com/", "https://example.com", "https://example.com/videos/clip.php?id=4",
        "HTTPS://EXAMPLE.COM/watch", "https://example.com/.hidden",
    ])
    func pagesGoThroughYtdlp(_ link: String) {
        #expect(LinkKind(of: link) == .page)
    }

    @Test(arguments: [
        "https://cdn.example/clip.mp4", "http://127.0.0.1:8080/party.MKV", "https://cdn.example/live/index.m3u8?token=x",
        "https://cdn.example/manifest.mpd#t=10", "https://cdn.example/a/b/song.opus", "rtmp://host/live/key",
        "rtsp://camera/stream", "srt://host:9000", "udp://239.0.0.1:1234", "file:///tmp/a.mp4", "assets/party.mp4",
        "/tmp/page.html", "folder", "tandem://host:7777/party/x?key=y",
    ])
    func mediaFilesAndOtherSchemesAreOpenedDirectly(_ argument: String) {
        #expect(LinkKind(of: argument) == .direct)
    }
}

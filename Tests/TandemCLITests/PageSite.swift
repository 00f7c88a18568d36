import Foundation
import TestSupport
import TestSupportHTTP

/// Web pages on loopback for yt-dlp's generic extractor, served by ``StaticFileServer`` (byte ranges,
/// as a party item needs) from a folder of the test's own:
/// - `page.html`: a `<video src="clip.mp4">` (the bundled h264-aac.mp4), titled "A Clip Page";
/// - `party.html`: a `<video src="party.mp4">` (the bundled 60 s party clip), titled "A Party Page";
/// - `hls.html`: a `<video>` whose source is `master.m3u8`, an HLS master made from the clip by the
///   ffmpeg CLI (`-f hls`, 1 s segments);
/// - `two.html`: two `<video>`s (`clip.mp4`, `clip2.mp4`): the generic extractor of yt-dlp 2023.03.04
///   makes a playlist of them ("Two Clips (1)", "(2)");
/// - `feed.xml`: an RSS feed with the two clips as enclosures (a playlist of references, listed flat);
/// - `dash.html`: a `<video>` of a DASH manifest (`-f dash`), whose formats are DASH fragments only;
/// - `split.html`: a `<video>` of `split.mpd`, a static DASH manifest of two whole files, the clip's
///   picture (`split-video.mp4`) and its sound (`split-sound.m4a`) apart (``SplitClip``): yt-dlp lists
///   a video-only and a sound-only format, as a video site lists its separate formats;
/// - `party-split.html`: the same of the 60 s party clip (`party-split.mpd`, `party-video.mp4`, `party-sound.m4a`);
/// - `nothing.html`: a page without video.
///
/// ``environment`` isolates yt-dlp from the user's configuration and cache (HOME of its own).
struct PageSite {
    let server: StaticFileServer
    let folder: TemporaryFolder

    /// Runs `body` with the site up, and takes it down after (also when `body` throws).
    static func with(_ body: (PageSite) async throws -> Void) async throws {
        let site = try await start()
        do {
            try await body(site)
        } catch {
            await site.stop()
            throw error
        }
        await site.stop()
    }

    static func start() async throws -> PageSite {
        let folder = try TemporaryFolder("pages")
        do {
            let clip = Repository.asset("h264-aac.mp4")
            try FileManager.default.copyItem(atPath: clip, toPath: folder.path("clip.mp4"))
            try FileManager.default.copyItem(atPath: clip, toPath: folder.path("clip2.mp4"))
            try FileManager.default.copyItem(atPath: Repository.asset("party.mp4"), toPath: folder.path("party.mp4"))
            try FileManager.default.createDirectory(atPath: folder.path("home"), withIntermediateDirectories: true)
            for (arguments, what) in [
                (["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8", folder.path("stream.m3u8")], "HLS"),
                (["-f", "dash", folder.path("manifest.mpd")], "DASH"),
            ] {
                let ffmpeg = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-i", clip, "-c", "copy"] + arguments)
                guard ffmpeg.status == 0 else { throw SiteFailure(description: "ffmpeg could not make the \(what) stream: \(ffmpeg.standardError)") }
            }
            try write(folder, "page.html", page("A Clip Page", videos: ["clip.mp4"]))
            try write(folder, "party.html", page("A Party Page", videos: ["party.mp4"]))
            try write(folder, "hls.html", page("An HLS Page", videos: ["master.m3u8"]))
            try write(folder, "two.html", page("Two Clips", videos: ["clip.mp4", "clip2.mp4"]))
            try write(folder, "dash.html", page("A DASH Page", videos: ["manifest.mpd"]))
            try write(folder, "nothing.html", page("Nothing Here", videos: []))
            _ = try await SplitClip.make(in: folder, from: clip)
            try write(folder, "split.mpd", splitManifest(seconds: 4, video: "split-video.mp4", sound: "split-sound.m4a"))
            try write(folder, "split.html", page("Two Streams", videos: ["split.mpd"]))
            _ = try await SplitClip.make(in: folder, from: Repository.asset("party.mp4"), video: "party-video.mp4", sound: "party-sound.m4a")
            try write(folder, "party-split.mpd", splitManifest(seconds: 60, video: "party-video.mp4", sound: "party-sound.m4a"))
            try write(folder, "party-split.html", page("A Party In Two Streams", videos: ["party-split.mpd"]))
            let server = try await StaticFileServer.start(root: folder.path)
            try write(folder, "feed.xml", feed(base: server.url("")))
            return PageSite(server: server, folder: folder)
        } catch {
            folder.remove()
            throw error
        }
    }

    struct SiteFailure: Error, CustomStringConvertible { let description: String }

    func url(_ name: String) -> String { server.url(name) }

    /// Writes (or rewrites: the server reads files when asked for them) a page titled `title` with a
    /// `<video>` for each of `videos`.
    func writePage(_ name: String, title: String, videos: [String]) throws {
        try Self.write(folder, name, Self.page(title, videos: videos))
    }

    /// For the tandem processes that run yt-dlp: a HOME (and XDG folders, ``ChildProcess/tandem``'s
    /// own) where no user's yt-dlp configuration or cache is found.
    var environment: [String: String] { ["HOME": folder.path("home")] }

    /// How many requests named `path` (e.g. "GET /page.html").
    func requests(_ prefix: String) -> Int { server.requests.filter { $0.hasPrefix(prefix) }.count }

    func stop() async {
        await server.stop()
        folder.remove()
    }

    private static func write(_ folder: TemporaryFolder, _ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
    }

    private static func page(_ title: String, videos: [String]) -> String {
        let tags = videos.map { "<video src=\"\($0)\" controls></video>" }.joined(separator: "\n")
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(title)</title></head>\n<body>\n<h1>\(title)</h1>\n\(tags)\n</body></html>\n"
    }

    /// Two adaptation sets of one whole-file representation each (yt-dlp reads `codecs` for what each holds).
    private static func splitManifest(seconds: Int, video: String, sound: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static"
             mediaPresentationDuration="PT\(seconds)S" minBufferTime="PT2S">
          <Period>
            <AdaptationSet mimeType="video/mp4" contentType="video">
              <Representation id="v" codecs="avc1.64000d" width="320" height="240" bandwidth="200000"><BaseURL>\(video)</BaseURL></Representation>
            </AdaptationSet>
            <AdaptationSet mimeType="audio/mp4" contentType="audio">
              <Representation id="a" codecs="mp4a.40.2" audioSamplingRate="44100" bandwidth="128000"><BaseURL>\(sound)</BaseURL></Representation>
            </AdaptationSet>
          </Period>
        </MPD>

        """
    }

    private static func feed(base: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>A Feed</title><link>\(base)</link><description>two clips</description>
        <item><title>First</title><link>\(base)page.html</link><enclosure url="\(base)clip.mp4" type="video/mp4" length="120349"/></item>
        <item><title>Second</title><link>\(base)two.html</link><enclosure url="\(base)clip2.mp4" type="video/mp4" length="120349"/></item>
        </channel></rss>

        """
    }
}

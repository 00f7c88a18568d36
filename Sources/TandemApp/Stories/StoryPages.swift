import FFmpegKit
import StoryKit
import YtdlKit

/// The page links among `tandem stories`' videos, resolved through yt-dlp before the stories start:
/// a story navigator opens its neighbour while the current one plays, with no time to ask a site.
package enum StoryPages {
    /// `stories` with each page link (unless `resolver` is nil, `--no-ytdl`) replaced by its videos
    /// (a playlist page by each of them), titled by the page unless the story has a title of its
    /// own. A page that gives nothing, or a video of it that does not play, is said through `say`
    /// and left out, as a story that cannot be opened would be, unless the link opens as media
    /// itself (``DirectFallback``).
    package static func resolved(_ stories: [Story], resolver: PageLinkResolver?, say: (String) -> Void) async -> [Story] {
        guard let resolver else { return stories }
        var out: [Story] = []
        for story in stories {
            guard LinkKind(of: story.url) == .page else {
                out.append(story)
                continue
            }
            do throws(PageLinkError) {
                let (videos, failures) = try await resolver.resolveAll(story.url)
                let given = story.title == Story.defaultTitle(story.url) ? nil : story.title
                failures.forEach { say($0.description) }
                for video in videos {
                    let title = videos.count == 1 ? given ?? video.title : video.title
                    out.append(Story(url: video.url, title: title, poster: story.poster, inputOptions: InputFile.options(sending: video.headers),
                                     audioFiles: video.audioURL.map { [$0] } ?? []))
                }
            } catch {
                if case .openDirectly = await DirectFallback.decide(story.url, after: error) { out.append(story) } else { say(error.description) }
            }
        }
        return out
    }
}

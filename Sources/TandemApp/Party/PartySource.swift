import YtdlKit

/// One item of `tandem host A B C` before it is identified: the host's file, a URL of media every
/// member opens, or a video of a page link — resolved here, by the host, so that every member opens
/// the same format (the item's `url`) and none needs yt-dlp.
package enum PartySource: Sendable, Equatable {
    case file(String)
    case url(String)
    case page(PageMedia)

    /// What a player opens for it.
    package var opening: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        case .page(let media): media.url
        }
    }

    /// The arguments as sources, in order: page links (unless `resolver` is nil, `--no-ytdl`)
    /// resolved to their videos, a playlist page to each of its videos; a video of a playlist that
    /// does not play is said through `say` and left out. Throws for a page link that gives nothing,
    /// unless it opens as media itself (``DirectFallback``).
    package static func sources(_ arguments: [String], resolver: PageLinkResolver?,
                                say: (String) -> Void) async throws(PageLinkError) -> [PartySource] {
        var sources: [PartySource] = []
        for argument in arguments {
            guard argument.contains("://") else {
                sources.append(.file(argument))
                continue
            }
            guard let resolver, LinkKind(of: argument) == .page else {
                sources.append(.url(argument))
                continue
            }
            let videos: [PageMedia], failures: [PageLinkError]
            do throws(PageLinkError) { (videos, failures) = try await resolver.resolveAll(argument) } catch {
                guard case .openDirectly = await DirectFallback.decide(argument, after: error) else { throw error }
                sources.append(.url(argument))
                continue
            }
            failures.forEach { say("\($0.description): left out of the party") }
            for video in videos { sources.append(.page(video)) }
        }
        return sources
    }
}

import FFmpegKit
import Foundation
import TandemBase

/// A link yt-dlp could not read, opened as media instead, as mpv does: an http(s) URL without a
/// media extension is asked of yt-dlp first (``LinkKind``), and a stream at `http://host/live` is
/// such a URL. When yt-dlp is missing, cannot run, or knows no video there
/// (``PageLinkError/mayBeMedia``), the player tries the URL itself; only when what it reads there
/// is not media (a web page) does yt-dlp's reason stand, since that is what the user can act on.
package enum DirectFallback {
    /// What becomes of a link yt-dlp gave `error` for.
    package enum Outcome: Sendable, Equatable {
        /// Open the link as media: it opened, or failed for a reason the player's own open will
        /// name (a 404, a refused connection), which says more than yt-dlp's.
        case openDirectly
        /// The link is a page after all (or yt-dlp's failure was not one the player gets past).
        case fail(PageLinkError)
    }

    /// Decides by opening `link` once with libavformat (on a thread of its own: the open blocks on
    /// the network), closing it again.
    package static func decide(_ link: String, after error: PageLinkError) async -> Outcome {
        guard error.mayBeMedia else { return .fail(error) }
        do {
            try await OwnThread.run { _ = try InputFile(url: link) }  // opened and closed there
            return decision(error, open: nil)
        } catch let refusal {
            return decision(error, open: refusal as? OpenError)
        }
    }

    /// The rule, given how the open went (nil: it opened).
    package static func decision(_ error: PageLinkError, open: OpenError?) -> Outcome {
        guard error.mayBeMedia else { return .fail(error) }
        if let open, open.isNotMedia { return .fail(error) }
        return .openDirectly
    }
}

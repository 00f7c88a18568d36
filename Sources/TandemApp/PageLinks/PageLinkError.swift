import Foundation
import TandemBase
import YtdlKit

/// Why a page link gave nothing to play: one line for people naming the link and the reason.
package struct PageLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// No `yt-dlp` on PATH.
        case notInstalled
        /// `yt-dlp` could not be started (in words).
        case cannotRun(String)
        /// It ran past the time limit (seconds) and was stopped.
        case timedOut(Double)
        /// It answered more than ``BoundedProcess/outputLimit`` bytes.
        case answerTooLarge
        /// It said what went wrong.
        case ytdl(YtdlDiagnosis)
        /// Its answer is not the information expected.
        case badAnswer(String)
        /// It answered, but no format is both playable and selected.
        case format(FormatSelectionFailure)
        /// A playlist entry that is a playlist again.
        case nestedPlaylist
        /// The command stopped before yt-dlp answered.
        case cancelled
    }

    /// The page link.
    package let link: String
    package let reason: Reason
    /// yt-dlp's own wait for the site (seconds), for the "did not answer" message.
    package var socketTimeout: Double = PageLinkResolver.socketTimeout

    package init(link: String, reason: Reason, socketTimeout: Double = PageLinkResolver.socketTimeout) {
        self.link = link
        self.reason = reason
        self.socketTimeout = socketTimeout
    }

    /// yt-dlp could not read the link, but the player might open it as media: yt-dlp is missing or
    /// cannot run, or it knows no video there ("unsupported URL", which is also what it says of a
    /// stream it does not recognise). mpv opens such a link itself; ``DirectFallback`` does the same.
    /// An HTTP error, a network failure or a timeout would fail the player's open too: no fallback.
    package var mayBeMedia: Bool {
        switch reason {
        case .notInstalled, .cannotRun, .ytdl(.unsupported): true
        default: false
        }
    }

    package var description: String {
        let host = HostPort(url: link)
        let site = host?.host ?? "the site"
        switch reason {
        case .notInstalled:
            return "yt-dlp is not installed: \(link) is a web page, and Tandem asks yt-dlp for its video "
                + "(apt install yt-dlp, or pip install yt-dlp)"
        case .cannotRun(let why):
            return "\(link): cannot run yt-dlp: \(why)"
        case .timedOut(let seconds):
            return "\(link): yt-dlp found nothing within \(Self.seconds(seconds)) s and was stopped (a slow site or network)"
        case .answerTooLarge:
            return "\(link): yt-dlp's answer is larger than \(BoundedProcess.outputLimit >> 20) MiB"
        case .ytdl(.unsupported):
            return "\(link): no video found there (yt-dlp: unsupported URL)"
        case .ytdl(.httpStatus(let code, let text)):
            return "\(link): the page cannot be read: HTTP \(code)\(text.isEmpty ? "" : " \(text)")"
        case .ytdl(.connectionRefused):
            return "\(link): network error: connection refused (nothing listens at \(host?.description ?? site))"
        case .ytdl(.unknownHost):
            return "\(link): network error: cannot resolve host \(site)"
        case .ytdl(.unreachable):
            return "\(link): network error: \(site) is unreachable"
        case .ytdl(.noAnswer):
            return "\(link): network error: \(site) did not answer within \(Self.seconds(socketTimeout)) s"
        case .ytdl(.other(let text)):
            return "\(link): yt-dlp: \(text)"
        case .badAnswer(let why):
            return "\(link): \(why)"
        case .format(let failure):
            return "\(link): \(failure)"
        case .nestedPlaylist:
            return "\(link): a playlist inside the playlist (not followed)"
        case .cancelled:
            return "\(link): stopped before yt-dlp answered"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

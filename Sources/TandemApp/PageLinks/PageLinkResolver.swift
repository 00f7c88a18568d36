import FFmpegKit
import Foundation
import YtdlKit

/// Turns a page link into what the player opens, through `yt-dlp -J` (the executable on PATH), as
/// mpv does: yt-dlp lists the page's formats, ``FormatSelector`` picks one by `--ytdl-format` among
/// those the player plays, and its URL is opened. A playlist page is listed without visiting each
/// entry (`--flat-playlist`); an entry that is another page is resolved when it is needed.
///
/// yt-dlp reads its own configuration, as under mpv (a user's cookies or proxy apply). It runs with
/// a time limit (``timeout``) and its own wait for a silent site (``socketTimeout``); every failure is
/// a ``PageLinkError`` naming the link and the reason.
package struct PageLinkResolver: Sendable {
    /// The program asked, looked up on PATH.
    package static let executable = "yt-dlp"
    /// How long yt-dlp may take for one link before it is stopped: it needs 2–10 s for a video
    /// site's watch page (the page, the site's player script, its manifests) and a few seconds for a
    /// playlist listed flat; a minute means a stuck site or network, and the command should say so.
    package static let timeout: Double = 60
    /// yt-dlp's wait for a site that does not answer (its `--socket-timeout`): a third of ``timeout``,
    /// so that a silent host is reported as one, not as yt-dlp taking too long.
    package static let socketTimeout: Double = 20
    /// For tests only: seconds to use instead of ``timeout`` (the socket timeout becomes a third of
    /// it), so that a stuck yt-dlp is stopped in a test's time. Documented in README.md, "Tests".
    package static let timeoutVariable = "TANDEM_YTDL_TIMEOUT"

    package var format: FormatSpec
    package var timeout: Double
    package var socketTimeout: Double
    package var playability: Playability

    /// `environment`: where ``timeoutVariable`` is read.
    package init(format: FormatSpec = .standard, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.format = format
        if let text = environment[Self.timeoutVariable], let seconds = Double(text), seconds > 0 {
            timeout = seconds
            socketTimeout = min(Self.socketTimeout, seconds / 3)
        } else {
            timeout = Self.timeout
            socketTimeout = Self.socketTimeout
        }
        playability = Playability(decodes: { CodecSupport.decodes($0) })
    }

    /// What `link` holds: its video, or its playlist's entries.
    package func listing(_ link: String) async throws(PageLinkError) -> PageListing {
        let info = try await ask(link, playlist: true)
        switch info.kind {
        case .video:
            return PageListing(title: info.title, entries: [.media(try media(info, link: link, title: nil))], isPlaylist: false)
        case .reference:
            guard let url = info.url else { throw failure(link, .badAnswer("yt-dlp points elsewhere without a URL")) }
            let target: PageEntry = LinkKind(of: url) == .direct
                ? .media(PageMedia(link: link, title: info.title ?? Self.lastComponent(url), duration: info.duration, url: url))
                : .page(link: url, title: info.title, duration: info.duration)
            return PageListing(title: info.title, entries: [target], isPlaylist: false)
        case .playlist:
            let entries = info.entries.enumerated().map { index, entry in
                self.entry(entry, number: index + 1, of: info, link: link)
            }
            return PageListing(title: info.title, entries: entries, isPlaylist: true)
        }
    }

    /// An entry ready to open: a page entry resolved now (yt-dlp again); an unplayable one throws why.
    package func resolve(_ entry: PageEntry) async throws(PageLinkError) -> PageMedia {
        switch entry {
        case .media(let media):
            return media
        case .unplayable(let error):
            throw error
        case .page(let link, let title, let duration):
            let info = try await ask(link, playlist: false)
            guard info.kind == .video else { throw PageLinkError(link: link, reason: .nestedPlaylist) }
            var media = try media(info, link: link, title: title)
            media.duration = media.duration ?? duration
            return media
        }
    }

    /// Every video of `link`, resolved (a party's items, stories): the ones that play, and a
    /// failure for each that does not. Throws when none plays.
    package func resolveAll(_ link: String) async throws(PageLinkError) -> (media: [PageMedia], failures: [PageLinkError]) {
        let listing = try await listing(link)
        var media: [PageMedia] = []
        var failures: [PageLinkError] = []
        for entry in listing.entries {
            do throws(PageLinkError) {
                media.append(try await resolve(entry))
            } catch {
                failures.append(error)
            }
        }
        if media.isEmpty, let first = failures.first { throw first }
        return (media, failures)
    }

    /// A video's format chosen and made ready to open.
    private func media(_ info: YtdlInfo, link: String, title: String?) throws(PageLinkError) -> PageMedia {
        let selection: FormatSelection
        do { selection = try FormatSelector.select(format, from: info.formats, playability: playability) } catch {
            throw PageLinkError(link: link, reason: .format(error))
        }
        return PageMedia(link: link, title: info.title ?? title ?? Self.lastComponent(link), duration: info.duration,
                         url: selection.format.url, audioURL: selection.audio?.url, format: selection.format)
    }

    /// Entry `number` of playlist `playlist` (listed at `link`).
    private func entry(_ entry: YtdlInfo, number: Int, of playlist: YtdlInfo, link: String) -> PageEntry {
        let fallbackTitle = playlist.title.map { "\($0) (\(number))" }
        switch entry.kind {
        case .video:
            // Its own page, when it has one other than the playlist's (else its media URL names it).
            let ownPage = entry.webpageURL.flatMap { $0 == link || $0 == playlist.webpageURL ? nil : $0 }
            do throws(PageLinkError) {
                var media = try media(entry, link: ownPage ?? link, title: fallbackTitle)
                if ownPage == nil { media.link = media.url }
                return .media(media)
            } catch {
                return .unplayable(error)
            }
        case .reference:
            guard let url = entry.url else {
                return .unplayable(PageLinkError(link: link, reason: .badAnswer("entry \(number) of the playlist has no URL")))
            }
            let title = entry.title ?? fallbackTitle
            if LinkKind(of: url) == .direct {
                return .media(PageMedia(link: url, title: title ?? Self.lastComponent(url), duration: entry.duration, url: url))
            }
            return .page(link: url, title: title, duration: entry.duration)
        case .playlist:
            return .unplayable(PageLinkError(link: entry.webpageURL ?? link, reason: .nestedPlaylist))
        }
    }

    /// yt-dlp's information on `link` (`playlist`: list a playlist's entries flat; else the video only).
    private func ask(_ link: String, playlist: Bool) async throws(PageLinkError) -> YtdlInfo {
        var arguments = ["-J", "--no-warnings", "--ignore-no-formats-error", "--socket-timeout", Self.number(socketTimeout)]
        arguments.append(playlist ? "--flat-playlist" : "--no-playlist")
        arguments += ["--", link]
        let outcome: BoundedProcess.Outcome
        do { outcome = try await BoundedProcess.run(Self.executable, arguments, timeout: timeout) } catch {
            switch error {
            case .notFound: throw failure(link, .notInstalled)
            case .cannotStart(let why): throw failure(link, .cannotRun(why))
            case .timedOut: throw failure(link, .timedOut(timeout))
            case .cancelled: throw failure(link, .cancelled)
            case .tooMuchOutput: throw failure(link, .answerTooLarge)
            }
        }
        guard outcome.status == 0 else {
            throw failure(link, .ytdl(YtdlDiagnosis(standardError: String(decoding: outcome.standardError, as: UTF8.self))))
        }
        do { return try YtdlInfo.decode(outcome.standardOutput) } catch { throw failure(link, .badAnswer(error.description)) }
    }

    private func failure(_ link: String, _ reason: PageLinkError.Reason) -> PageLinkError {
        PageLinkError(link: link, reason: reason, socketTimeout: socketTimeout)
    }

    private static func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

    /// A URL's last path component, or the URL.
    static func lastComponent(_ url: String) -> String {
        let name = URL(string: url)?.lastPathComponent ?? ""
        return name.isEmpty || name == "/" ? url : name
    }
}

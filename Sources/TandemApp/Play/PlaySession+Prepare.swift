import FFmpegKit

extension PlaySession {
    /// An item made ready to play, or the line that says why it cannot be.
    enum Prepared {
        case ready(PlayItem.Target, PlayOptions.Probe)
        case failed(String)
    }

    /// Item `index` made ready: a page's video resolved if it was not yet, then opened once
    /// (``PlayOptions/preflight(_:)``) for its first video stream and duration. A page's media URL
    /// the server refuses as a link that expired does (HTTP 403, 410) gets its page asked again, once.
    mutating func prepare(_ index: Int) async -> Prepared {
        var item = items[index]
        defer { items[index] = item }
        var target: PlayItem.Target
        do throws(PageLinkError) { target = try await item.target(resolver: resolver) } catch { return .failed(error.description) }
        let refusal: OpenError
        do { return .ready(target, try PlayOptions.preflight(target.url, options: target.inputOptions)) } catch { refusal = error }
        do throws(PageLinkError) {
            guard let refreshed = try await item.refreshed(after: refusal, resolver: resolver) else {
                return .failed(Self.message(refusal, item: item, target: target))
            }
            target = refreshed
        } catch {
            return .failed(error.description)
        }
        do { return .ready(target, try PlayOptions.preflight(target.url, options: target.inputOptions)) } catch {
            return .failed(Self.message(error, item: item, target: target))
        }
    }

    /// An open failure in words: a page's video is named by its page, not its media URL.
    static func message(_ error: OpenError, item: PlayItem, target: PlayItem.Target) -> String {
        target.title == nil ? error.description : "\(item.name): \(error.reason)"
    }
}

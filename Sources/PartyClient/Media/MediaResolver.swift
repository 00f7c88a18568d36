import Foundation
import FFmpegKit
import PartyKit

/// Where a member opens a party item, and why there.
public struct ResolvedMedia: Sendable, Equatable {
    public enum Origin: Sendable, Equatable {
        /// This member's own file, checked to be the same content.
        case localCopy(String)
        /// The bytes the party serves (the host's file, over HTTP byte ranges).
        case streaming
        /// The item's own URL (http, https, HLS).
        case url
    }

    public var url: String
    /// libavformat open options: the media credential header when streaming from the party.
    public var inputOptions: [String: String]
    /// Sound opened beside ``url`` on one clock (a URL item's ``MediaItem/audioURL``), opened with the same options.
    public var audioFiles: [String] = []
    public var origin: Origin
    /// A line for the member when a same-named local file was not used.
    public var note: String?
}

/// Decides, for each item, between a local copy and the party's stream: a file of the item's
/// title in one of the media folders is used only when its identity is the item's; otherwise the
/// member streams, and says why in one line naming both.
public enum MediaResolver {
    /// `base`: the party's HTTP origin, e.g. `http://127.0.0.1:7777`.
    public static func resolve(_ item: MediaItem, index: Int, party: String, key: String, base: String,
                               folders: [String], identify: (String) throws -> MediaIdentity = MediaIdentification.identify(file:))
        -> ResolvedMedia {
        if let url = item.url {
            return ResolvedMedia(url: url, inputOptions: InputFile.options(sending: item.headers ?? [:]),
                                 audioFiles: item.audioURL.map { [$0] } ?? [], origin: .url, note: nil)
        }
        let stream = ResolvedMedia(url: base + MediaPath.path(party: party, item: index),
                                   inputOptions: streamOptions(header: MediaToken.header(key: key, party: party)),
                                   origin: .streaming, note: nil)
        guard let path = localCandidate(item.title, folders: folders) else {
            var streaming = stream
            streaming.note = "\(item.title): no copy here, streaming it from the party"
            return streaming
        }
        do {
            let mine = try identify(path)
            guard let difference = mine.mismatch(with: item.identity) else {
                return ResolvedMedia(url: path, inputOptions: [:], origin: .localCopy(path), note: nil)
            }
            var streaming = stream
            streaming.note = "\(item.title) here \(difference): streaming it instead"
            return streaming
        } catch {
            var streaming = stream
            streaming.note = "\(item.title) here cannot be read (\(error)): streaming it instead"
            return streaming
        }
    }

    /// Longest pause, in seconds, between libavformat's reconnects of a party stream cut short (it
    /// waits 0, 1, 3, 7, 15 s, then gives up): covers a node dying and its lease running out elsewhere.
    static let reconnectDelayMax = 16

    /// libavformat's http options for a party stream: the media credential, and reconnecting at the
    /// offset reached when a body is cut short (the party's node died or the party moved: the guest's
    /// tunnel then leads to the new node).
    static func streamOptions(header: String) -> [String: String] {
        ["headers": header, "reconnect": "1", "reconnect_delay_max": "\(reconnectDelayMax)"]
    }

    /// A regular file called `title` in one of `folders` (a bare file name only: a title with a
    /// path in it is never looked up, so a party cannot point a member at its other files).
    static func localCandidate(_ title: String, folders: [String]) -> String? {
        guard !title.isEmpty, !title.contains("/"), title != ".", title != ".." else { return nil }
        for folder in folders {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(title).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { return path }
        }
        return nil
    }
}

extension ResolvedMedia.Origin {
    /// For people and for the party's participant list.
    var label: String {
        switch self {
        case .localCopy: "local copy"
        case .streaming: "streaming"
        case .url: "url"
        }
    }
}

import PartyKit
import Synchronization

/// The media a party server serves: for each party, the credential its members present, the
/// local files of its items (by index; an item the server has no bytes for is absent) and, for a
/// host that has a decoder, what makes its items playable in a browser (``WebMediaSource``).
///
/// Safe from any thread; the HTTP handlers look parties up here on their event loops.
public final class PartyMediaLibrary: Sendable {
    public struct Entry: Sendable {
        /// ``MediaToken`` of the party's key.
        public var token: String
        /// Local file of item N.
        public var files: [Int: String]
        /// The remuxed segments, transcoded sound and WebVTT subtitles of the items, for the browser
        /// page; nil where nothing converts them (`tandem serve`, which links no decoder).
        public var web: (any WebMediaSource)?
    }

    private let parties = Mutex<[String: Entry]>([:])
    private let bodies = Atomic<Int>(0)
    private let bytes = Atomic<Int64>(0)

    /// Media answers with a body begun (200 or 206), and the bytes they carried, since start.
    public var servedBodies: Int { bodies.load(ordering: .relaxed) }
    public var servedBytes: Int64 { bytes.load(ordering: .relaxed) }

    func noteServing(bytes count: Int64) {
        bodies.add(1, ordering: .relaxed)
        bytes.add(count, ordering: .relaxed)
    }

    /// Items whose bytes a host sends through its relay connection (`tandem serve`).
    public let relay: MediaRelay

    public init(relay: MediaRelay = MediaRelay()) { self.relay = relay }

    /// Serves `files` (item index → local path) for `party` to holders of `key`, and what `web`
    /// makes of them for browsers (`/party/ID/media/N/web/…`, ``WebMediaPath``).
    public func serve(party: String, key: String, files: [Int: String], web: (any WebMediaSource)? = nil) {
        let entry = Entry(token: MediaToken.derive(key: key, party: party), files: files, web: web)
        parties.withLock { $0[party] = entry }
    }

    /// Serves `party`'s relayed items to holders of `token` (its files stay with its host).
    func serveRelayed(party: String, token: String) {
        parties.withLock { parties in
            if parties[party] == nil { parties[party] = Entry(token: token, files: [:]) }
        }
    }

    public func remove(party: String) {
        _ = parties.withLock { $0.removeValue(forKey: party) }
    }

    func entry(party: String) -> Entry? { parties.withLock { $0[party] } }
}

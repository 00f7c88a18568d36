/// One line of `tandem host/join --json`.
package enum PartyEvent: Encodable, Sendable, Equatable {
    /// Someone joined or left, the host changed, a request was refused… (`text` is the line a person reads).
    case notice(text: String)
    /// A chat line from another member.
    case chat(from: String, text: String)
    /// A line from Tandem itself ("party ended: …").
    case info(text: String)
    /// The party's link, printed by the host; `reach`: whom it is for when a self-serving host has
    /// two (`internet`, then `lan`), nil when it has one.
    /// `web`: the same party's page, for guests in a browser.
    case party(link: String, party: String, reach: String? = nil, web: String? = nil)
    /// The member's state, once a second.
    case status(PartyStatusLine)

    /// The fields of a `status` line; `skewMs` and `position` are `null` while unknown.
    package struct PartyStatusLine: Sendable, Equatable {
        package var party: String
        package var participants: Int
        package var synced: Bool
        package var skewMs: Double?
        package var position: Double?
        package var playing: Bool
        package var connected: Bool
        /// Its stream ran dry and it is refilling (the key is written only while true).
        package var buffering = false
        /// A live item: seconds its player has read beyond the moment shown, up to the live edge
        /// (the key is written only for a live item).
        package var behindLive: Double? = nil
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        switch self {
        case .notice(let text):
            try c.encode(event: "notice")
            try c.encode(text, forKey: "text")
        case .chat(let from, let text):
            try c.encode(event: "chat")
            try c.encode(from, forKey: "from")
            try c.encode(text, forKey: "text")
        case .info(let text):
            try c.encode(event: "info")
            try c.encode(text, forKey: "text")
        case .party(let link, let party, let reach, let web):
            try c.encode(event: "party")
            try c.encode(link, forKey: "link")
            if let web { try c.encode(web, forKey: "web") }
            try c.encode(party, forKey: "party")
            if let reach { try c.encode(reach, forKey: "reach") }
        case .status(let s):
            try c.encode(event: "status")
            try c.encode(s.party, forKey: "party")
            try c.encode(s.participants, forKey: "participants")
            try c.encode(s.synced, forKey: "synced")
            try c.encode(number: s.skewMs, forKey: "skewMs")
            try c.encode(number: s.position, forKey: "position")
            try c.encode(s.playing, forKey: "playing")
            try c.encode(s.connected, forKey: "connected")
            if s.buffering { try c.encode(true, forKey: "buffering") }
            if let behind = s.behindLive { try c.encode(number: (behind * 10).rounded() / 10, forKey: "behindLiveSeconds") }
        }
    }
}

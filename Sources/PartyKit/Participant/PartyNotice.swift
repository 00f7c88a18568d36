/// What a member is told, for its status line or window: joins, leaves, chat, refusals…
public enum PartyNotice: Sendable, Equatable {
    case joined(Welcome)
    case participantJoined(ParticipantInfo)
    case participantLeft(ParticipantInfo, reason: String)
    case participantList([ParticipantInfo])
    case hostChanged(ParticipantInfo)
    /// Someone's presence changed (can't play, stalled, watching again); `item` is the party's.
    case presenceChanged(ParticipantInfo, item: Int)
    case timeline(Timeline, reason: String)
    case chat(ChatMessage)
    case refused(String)
    case error(ErrorMessage)
    case partyEnded(String)
    /// Where this member's media comes from, when that is worth a line ("streaming it instead").
    case media(String)

    /// One line for people ("Alice joined the party").
    public var text: String {
        switch self {
        case .joined(let w): "joined party \(w.party) as \(w.you.name) (\(w.participants.count) here)"
        case .participantJoined(let p): "\(p.name) joined the party"
        case .participantLeft(let p, let reason): "\(p.name) left (\(reason))"
        case .participantList(let list):
            "here: " + list.map { p in
                let role = p.role == .host ? " (host)" : ""
                let output = p.presence?.output.map { " [\($0.summary)]" } ?? ""
                return "\(p.name)\(role)" + (p.presence.map { ": \($0.text(item: nil))" } ?? "") + output
            }.joined(separator: ", ")
        case .presenceChanged(let p, let item): "\(p.name) \(p.presence?.text(item: item) ?? "syncing")"
        case .hostChanged(let p): "\(p.name) is the host now"
        case .timeline(_, let reason): reason
        case .chat(let line): "<\(line.from)> \(line.text)"
        case .refused(let reason): "refused: \(reason)"
        case .error(let e): "error: \(e.message)"
        case .partyEnded(let reason): "party ended: \(reason)"
        case .media(let line): line
        }
    }
}

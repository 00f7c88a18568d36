/// Party news the window shows as a toast: the app turns its party's notices into these.
public enum PartyWindowNotice: Sendable, Equatable {
    /// The party refused one of our requests.
    case refused(reason: String)
    /// Someone joined the party.
    case joined(name: String)
    /// Someone left the party (for whatever reason).
    case left(name: String)
    /// The party is over (`reason` as the party words it: "the host Alice left the party").
    case ended(reason: String)
    /// Anything else (chat, a new host, an error), worded by the party.
    case message(String)

    /// The toast's text: "Refused: …", "Alice joined the party", "Bob left", "Party ended: …".
    public var toastText: String {
        switch self {
        case .refused(let reason): "Refused: \(reason)"
        case .joined(let name): "\(name) joined the party"
        case .left(let name): "\(name) left"
        case .ended(let reason): reason.isEmpty ? "Party ended" : "Party ended: \(reason)"
        case .message(let text): text
        }
    }
}

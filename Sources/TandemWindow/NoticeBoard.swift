import PartyKit
import Synchronization

/// Notices from the member's callback (any thread), taken by the window as toasts.
public final class NoticeBoard: Sendable {
    private let pending = Mutex<[String]>([])

    public init() {}

    public func post(_ notice: PartyNotice) {
        let text: String = switch notice {
        case .participantLeft(let p, _): "\(p.name) left"
        case .partyEnded: "Party ended"
        case .refused(let reason): "Refused: \(reason)"
        default: notice.text
        }
        pending.withLock { $0.append(text) }
    }

    public func take() -> [String] { pending.withLock { list in defer { list.removeAll() }; return list } }
}

import Synchronization

/// Party notices posted from any thread (the party member's callback), taken by the window's
/// turn (toasts, and the party's end).
public final class NoticeBoard: Sendable {
    private let pending = Mutex<(notices: [PartyWindowNotice], ended: Bool)>(([], false))

    public init() {}

    public func post(_ notice: PartyWindowNotice) {
        pending.withLock { board in
            board.notices.append(notice)
            if case .ended = notice { board.ended = true }
        }
    }

    /// An ``PartyWindowNotice/ended(reason:)`` was posted: the party is over.
    public var partyEnded: Bool { pending.withLock { $0.ended } }

    /// The notices posted since the last call, oldest first.
    public func take() -> [PartyWindowNotice] {
        pending.withLock { board in defer { board.notices.removeAll() }; return board.notices }
    }
}

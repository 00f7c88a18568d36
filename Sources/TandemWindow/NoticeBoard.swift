import Synchronization

/// Party notices posted from any thread (the party member's callback), taken by the window's
/// turn as toasts.
public final class NoticeBoard: Sendable {
    private let pending = Mutex<[String]>([])

    public init() {}

    public func post(_ notice: PartyWindowNotice) {
        pending.withLock { $0.append(notice.toastText) }
    }

    /// The toast texts posted since the last call, oldest first.
    public func take() -> [String] { pending.withLock { list in defer { list.removeAll() }; return list } }
}

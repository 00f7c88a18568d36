/// The toasts a controller hands the window: each posted text gets a new id (the window shows
/// it for a few seconds from the turn it first sees it), and only the latest few are kept.
public struct ToastQueue: Sendable {
    /// Older ones have long expired on screen by the time this many newer ones came.
    public static let kept = 8

    public private(set) var toasts: [Toast] = []
    private var nextID = 1

    public init() {}

    public mutating func post(_ text: String) {
        toasts.append(Toast(id: nextID, text: text))
        nextID += 1
        if toasts.count > Self.kept { toasts.removeFirst(toasts.count - Self.kept) }
    }
}

extension PlayerWindow {
    /// Saves a screenshot (``saveScreenshot(in:)``) and says how it went, as a toast would.
    public func screenshotMessage() -> String {
        do {
            let path = try saveScreenshot()
            return "Screenshot: \(path.split(separator: "/").last.map(String.init) ?? path)"
        } catch {
            return "Screenshot failed: \(error)"
        }
    }
}

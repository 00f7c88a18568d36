import SyncplayClient

extension SyncplaySession {
    /// A line the user typed, on the terminal or in the window's chat line: "/who" lists the room,
    /// "/ready" and "/unready" say so; anything else is chat to the room.
    package func typed(_ text: String) async {
        switch text {
        case "/who": listUsers()
        case "/ready": setReady(true)
        case "/unready": setReady(false)
        default: chat(text)
        }
    }
}

/// One `observe_property` registration of one client.
struct IPCObserver: Sendable, Hashable {
    /// The client's id for this observer (mpv allows several observers with one id).
    var id: Int64
    var property: IPCProperty
    /// The value last sent to the client; `nil` means "unavailable" was last sent.
    var lastSent: IPCValue?
}

/// What the party window asks of the party when a key is pressed. The party decides: its server
/// schedules the request for everyone, or refuses it and a ``PartyWindowNotice/refused(reason:)``
/// says why. The window never acts on the player itself.
public enum PartyWindowRequest: Sendable, Equatable {
    case play
    case pause
    /// Everyone to this position of the current item, in seconds.
    case seek(to: Double)
    /// Everyone to item `index` of the party's list (0-based).
    case item(Int)
    /// Everyone at this speed (1: normal).
    case rate(Double)
    /// Everyone to the live stream's hold behind its edge (the party's `live` command).
    case live
}

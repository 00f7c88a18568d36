/// What the party window needs of a party: somewhere to send its requests, and a way to leave.
/// The app adapts its party member to it (the window knows nothing of the party's protocol).
public protocol PartyControls: Sendable {
    /// Asks the party to play, pause, seek, change item or rate (it may refuse: a notice says why).
    func request(_ request: PartyWindowRequest) async
    /// Sends a line of chat to everyone in the party (typed in the window's chat line). Required:
    /// a party the window is put on must say where its chat goes.
    func chat(_ text: String) async
    /// Leaves the party (the user quit the window).
    func leave() async
}

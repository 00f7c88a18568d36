/// The app behind a ``PlayerWindow``: the window asks it for a ``WindowScene`` every turn of its
/// loop and hands it every ``WindowCommand`` that a key (or closing the window) produces.
@WindowActor
public protocol WindowController: AnyObject {
    /// What to draw now. Called every turn (up to a few hundred times a second): keep it cheap.
    /// The controller may end the loop from here with ``PlayerWindow/stop()`` (at the end of a file).
    func scene(in window: PlayerWindow) -> WindowScene
    /// A command from the keyboard. After `.quit` the window's loop ends whatever the controller
    /// does; for anything else the controller may end it with ``PlayerWindow/stop()``.
    func handle(_ command: WindowCommand, window: PlayerWindow)
}

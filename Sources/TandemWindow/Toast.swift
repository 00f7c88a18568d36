/// A short notice shown over the picture for ``OverlayRenderer/toastSeconds``
/// ("Alice joined the party").
///
/// Toasts are told apart by `id`, not by text: the same text with a new id is shown again. The
/// window times each id from the first scene that contains it; the app may keep old toasts in the
/// scene (expired ones are not drawn) or drop them whenever it likes.
public struct Toast: Sendable, Hashable, Identifiable {
    public var id: Int
    public var text: String

    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

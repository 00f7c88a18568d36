/// Work for one client's serving task, kept in one queue so replies and events go out in order.
enum IPCConnectionInput: Sendable {
    /// A request line from the client.
    case line(String)
    /// A property change from the application, to turn into events for this client's observers.
    case change(IPCPropertyChange)
}

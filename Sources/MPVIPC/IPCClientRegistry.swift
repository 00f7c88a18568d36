import Synchronization

/// The server's connected clients, shared between the accepting event loops, the task that
/// forwards property changes and ``IPCServer/stop()``.
final class IPCClientRegistry: Sendable {
    private struct State {
        var nextID = 1
        var connections: [Int: IPCConnection] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    /// A new client number.
    func makeID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Adds a client; returns `false` when the server is stopping and the client must be refused.
    func add(_ connection: IPCConnection) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.connections[connection.id] = connection
            return true
        }
    }

    /// Forgets a client whose channel went away.
    func remove(_ connection: IPCConnection) {
        _ = state.withLock { $0.connections.removeValue(forKey: connection.id) }
    }

    /// The number of connected clients.
    var count: Int {
        state.withLock { $0.connections.count }
    }

    /// The connected clients.
    var all: [IPCConnection] {
        state.withLock { Array($0.connections.values) }
    }

    /// Hands a property change to every client.
    func broadcast(_ change: IPCPropertyChange) {
        for connection in all {
            connection.enqueue(change: change)
        }
    }

    /// Refuses new clients from now on and returns the current ones.
    func close() -> [IPCConnection] {
        state.withLock { state in
            state.isClosed = true
            defer { state.connections = [:] }
            return Array(state.connections.values)
        }
    }
}

/// Results of expensive work by key: each made once however many ask at the same time (later
/// askers await the first one's work), the recent ones kept up to a total cost, the least recently
/// used dropped first. A failure is not kept: the next request tries again.
actor ResultCache<Key: Hashable & Sendable, Value: Sendable> {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUse: Int
    }

    /// The total cost kept (bytes, for segments).
    let capacity: Int
    private let cost: @Sendable (Value) -> Int
    private var entries: [Key: Entry] = [:]
    private var inFlight: [Key: Task<Value, any Error>] = [:]
    private var total = 0
    private var clock = 0

    init(capacity: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.capacity = capacity
        self.cost = cost
    }

    /// The value for `key`: kept, being made, or made now by `make`.
    func value(for key: Key, make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        clock += 1
        if let entry = entries[key] {
            entries[key]?.lastUse = clock
            return entry.value
        }
        if let task = inFlight[key] { return try await task.value }
        let task = Task { try await make() }
        inFlight[key] = task
        do {
            let value = try await task.value
            inFlight[key] = nil
            keep(value, for: key)
            return value
        } catch {
            inFlight[key] = nil
            throw error
        }
    }

    /// Whether `key` is kept now (for tests).
    func holds(_ key: Key) -> Bool { entries[key] != nil }

    private func keep(_ value: Value, for key: Key) {
        let size = cost(value)
        guard size <= capacity else { return }
        entries[key] = Entry(value: value, cost: size, lastUse: clock)
        total += size
        while total > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            total -= oldest.value.cost
            entries[oldest.key] = nil
        }
    }
}

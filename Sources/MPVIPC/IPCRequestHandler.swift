/// The socket-free core of the mpv IPC server: turns one request line into replies, and
/// property changes into `property-change` events, for one client.
///
/// Each client has its own handler because observers belong to the client that registered them.
/// The handler only talks to the ``IPCTarget``; the caller owns the transport and sends
/// ``IPCResponse/messages`` (serialized, one per line) back to the client.
///
/// Replies follow mpv: `{"data":…,"error":"success","request_id":N}`, where `request_id` echoes
/// the request's value (0 when absent) and `data` is present only for commands that return one.
public struct IPCRequestHandler: Sendable {
    /// Speeds mpv accepts (its `--speed` option range).
    public static let speedRange: ClosedRange<Double> = 0.01...100

    /// The application this handler queries and steers.
    public let target: any IPCTarget

    /// This client's `observe_property` registrations, in registration order.
    private(set) var observers: [IPCObserver] = []

    /// Creates a handler for one client of `target`.
    public init(target: any IPCTarget) {
        self.target = target
    }

    /// Handles one request line (without its newline).
    ///
    /// Blank lines produce no messages. Malformed JSON, non-object requests and requests without
    /// a `command` array get `{"error":"invalid parameter","request_id":0}` (as mpv replies);
    /// nothing here throws or traps on bad input.
    public mutating func handle(line: String) async -> IPCResponse {
        if line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) {
            return IPCResponse(messages: [])
        }
        guard let request = IPCRequest.decode(line) else {
            return IPCResponse(messages: [Self.reply(data: nil, error: .invalidParameter, requestID: 0)])
        }
        let requestID = request.requestID
        let outcome: Outcome
        do throws(Failure) {
            guard let command = request.command, let name = command.first?.stringValue else {
                throw Failure(.invalidParameter)
            }
            outcome = try await execute(name, arguments: Array(command.dropFirst()))
        } catch {
            return IPCResponse(messages: [Self.reply(data: nil, error: error.message, requestID: requestID)])
        }
        let reply = Self.reply(data: outcome.data, error: IPCErrorCode.success.rawValue, requestID: requestID)
        return IPCResponse(messages: [reply] + outcome.events, quitRequested: outcome.quit)
    }

    /// The `property-change` events this client should get for `change`: one per observer of the
    /// property whose last sent value differs (mpv only reports actual changes).
    public mutating func propertyChanged(_ change: IPCPropertyChange) -> [JSONValue] {
        var events: [JSONValue] = []
        for index in observers.indices
        where observers[index].property == change.property && observers[index].lastSent != change.value {
            observers[index].lastSent = change.value
            events.append(Self.event(id: observers[index].id, property: change.property, value: change.value))
        }
        return events
    }

    // MARK: - Commands

    /// What a successful command produced.
    private struct Outcome {
        /// `nil` leaves `data` out of the reply; `.null` sends `"data":null` as mpv does for commands.
        var data: JSONValue?
        var events: [JSONValue] = []
        var quit = false
    }

    /// A failed command: the reply's `error` string.
    private struct Failure: Error {
        var message: String
        init(_ code: IPCErrorCode) { message = code.rawValue }
        init(_ refusal: IPCRefusal) { message = refusal.reason }
    }

    private mutating func execute(_ name: String, arguments: [JSONValue]) async throws(Failure) -> Outcome {
        switch name {
        case "get_property":
            try Self.expect(arguments, count: 1)
            let property = try Self.property(named: arguments[0])
            guard let value = await target.property(property) else { throw Failure(.propertyUnavailable) }
            return Outcome(data: value.json)

        case "set_property":
            try Self.expect(arguments, count: 2)
            let property = try Self.property(named: arguments[0])
            try await set(property, to: arguments[1])
            return Outcome()

        case "seek":
            guard (1...2).contains(arguments.count) else { throw Failure(.invalidParameter) }
            try await seek(amount: arguments[0], flags: arguments.count == 2 ? arguments[1] : nil)
            return Outcome(data: .null)

        case "quit":
            // mpv takes an optional exit code; it is accepted and ignored here.
            guard arguments.count <= 1 else { throw Failure(.invalidParameter) }
            return Outcome(data: .null, quit: true)

        case "playlist-next", "playlist-prev":
            // mpv's optional `weak`/`force` flag is accepted; both act as `weak` (nothing past the ends).
            guard arguments.count <= 1 else { throw Failure(.invalidParameter) }
            if let flag = arguments.first, flag.stringValue != "weak", flag.stringValue != "force" {
                throw Failure(.invalidParameter)
            }
            do throws(IPCRefusal) { try await target.playlistStep(name == "playlist-next" ? 1 : -1) } catch {
                throw Failure(error)
            }
            return Outcome(data: .null)

        case "observe_property":
            try Self.expect(arguments, count: 2)
            guard let id = arguments[0].integerValue else { throw Failure(.invalidParameter) }
            let property = try Self.property(named: arguments[1])
            let value = await target.property(property)
            observers.append(IPCObserver(id: id, property: property, lastSent: value))
            // mpv reports the current value once right after registering.
            return Outcome(events: [Self.event(id: id, property: property, value: value)])

        case "unobserve_property":
            try Self.expect(arguments, count: 1)
            guard let id = arguments[0].integerValue else { throw Failure(.invalidParameter) }
            observers.removeAll { $0.id == id }
            return Outcome()

        default:
            throw Failure(.invalidParameter)
        }
    }

    private func set(_ property: IPCProperty, to value: JSONValue) async throws(Failure) {
        switch property {
        case .pause:
            let paused: Bool
            switch value {
            case .bool(let flag): paused = flag
            case .string("yes"): paused = true
            case .string("no"): paused = false
            default: throw Failure(.propertyFormat)
            }
            do throws(IPCRefusal) { try await target.setPause(paused) } catch { throw Failure(error) }

        case .speed:
            guard let speed = Self.number(value) else { throw Failure(.propertyFormat) }
            guard Self.speedRange.contains(speed) else { throw Failure(.propertyError) }
            do throws(IPCRefusal) { try await target.setSpeed(speed) } catch { throw Failure(error) }

        case .timePos:
            guard let seconds = Self.number(value) else { throw Failure(.propertyFormat) }
            guard seconds.isFinite else { throw Failure(.propertyError) }
            do throws(IPCRefusal) { try await target.seek(to: max(0, seconds)) } catch { throw Failure(error) }

        case .duration, .timeSample, .pausedForCache, .streamStart:
            throw Failure(.propertyError)  // read-only
        }
    }

    /// `["seek", amount]` or `["seek", amount, flags]`; flags as mpv spells them:
    /// `relative` (default) or `absolute`, optionally joined with `exact` / `keyframes` by `+`.
    private func seek(amount: JSONValue, flags: JSONValue?) async throws(Failure) {
        guard let amount = Self.number(amount), amount.isFinite else { throw Failure(.invalidParameter) }
        var absolute = false
        if let flags {
            guard let text = flags.stringValue else { throw Failure(.invalidParameter) }
            var positioning: String?
            for flag in text.split(separator: "+", omittingEmptySubsequences: false) {
                switch flag {
                case "relative", "absolute":
                    guard positioning == nil else { throw Failure(.invalidParameter) }
                    positioning = String(flag)
                case "exact", "keyframes":
                    break  // Tandem always seeks accurately
                default:
                    throw Failure(.invalidParameter)  // includes the *-percent modes
                }
            }
            absolute = positioning == "absolute"
        }
        var destination = amount
        if !absolute {
            guard case .double(let now)? = await target.property(.timePos) else { throw Failure(.commandError) }
            destination += now
        }
        do throws(IPCRefusal) { try await target.seek(to: max(0, destination)) } catch { throw Failure(error) }
    }

    // MARK: - Helpers

    private static func expect(_ arguments: [JSONValue], count: Int) throws(Failure) {
        guard arguments.count == count else { throw Failure(.invalidParameter) }
    }

    private static func property(named name: JSONValue) throws(Failure) -> IPCProperty {
        guard let name = name.stringValue else { throw Failure(.invalidParameter) }
        guard let property = IPCProperty(rawValue: name) else { throw Failure(.propertyNotFound) }
        return property
    }

    /// A JSON number, or a string holding one (mpv accepts both for numeric arguments).
    private static func number(_ value: JSONValue) -> Double? {
        if let number = value.doubleValue { return number }
        if let text = value.stringValue { return Double(text) }
        return nil
    }

    private static func reply(data: JSONValue?, error: IPCErrorCode, requestID: JSONValue) -> JSONValue {
        reply(data: data, error: error.rawValue, requestID: requestID)
    }

    private static func reply(data: JSONValue?, error: String, requestID: JSONValue) -> JSONValue {
        var members: [String: JSONValue] = ["error": .string(error), "request_id": requestID]
        if let data { members["data"] = data }
        return .object(members)
    }

    private static func event(id: Int64, property: IPCProperty, value: IPCValue?) -> JSONValue {
        var members: [String: JSONValue] = [
            "event": "property-change", "id": .number(Double(id)), "name": .string(property.rawValue),
        ]
        if let value { members["data"] = value.json }
        return .object(members)
    }
}

/// A track change that cannot be made; the track in use plays on.
public struct TrackError: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}

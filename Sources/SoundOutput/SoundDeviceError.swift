/// No sound device could be opened (no audio driver, no server, no card).
public struct SoundDeviceError: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

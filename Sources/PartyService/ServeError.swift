/// Why `tandem serve` could not start or had to stop: one line for the user (`tandem: …`, exit 1).
public struct ServeError: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A change of a property's value reported by the application through
/// ``IPCTarget/propertyChanges()``; the server forwards it to clients that observe the property.
public struct IPCPropertyChange: Sendable, Hashable {
    /// The property that changed.
    public var property: IPCProperty
    /// Its new value, or `nil` when it became unavailable (for example `duration` with no file).
    public var value: IPCValue?

    /// Creates a change record.
    public init(_ property: IPCProperty, _ value: IPCValue?) {
        self.property = property
        self.value = value
    }
}

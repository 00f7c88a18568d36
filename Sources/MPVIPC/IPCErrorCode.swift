/// The mpv error strings (`mpv_error_string`) this server replies with.
enum IPCErrorCode: String, Sendable {
    case success = "success"
    /// Malformed request, unknown command, wrong argument count or type.
    case invalidParameter = "invalid parameter"
    /// A property name this server does not know.
    case propertyNotFound = "property not found"
    /// The property exists but has no value right now (e.g. `duration` with no file).
    case propertyUnavailable = "property unavailable"
    /// Wrong value type for the property, or a read-only property.
    case propertyFormat = "unsupported format for accessing property"
    /// A value of the right type that the property does not accept (e.g. speed 0).
    case propertyError = "error accessing property"
    /// A command that could not run (e.g. a relative seek with no position).
    case commandError = "error running command"
}

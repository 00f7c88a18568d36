import ArgumentParser
import TandemBase

/// `HOST:PORT` (or `[IPv6]:PORT`) as an option value.
extension HostPort: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

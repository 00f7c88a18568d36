import TandemCLI

/// The `tandem` executable: TandemCLI's root command, run as swift-argument-parser runs an async one.
@main
extension Tandem {}

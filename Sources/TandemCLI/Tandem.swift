import TandemApp
import ArgumentParser
import PartyKit

/// `tandem`: the command line, its subcommands and their options. The executable target (`tandem`) only
/// runs it; what the commands do lives in TandemApp (sessions) and TandemBench (the benchmark tools).
public struct Tandem: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Synchronized video playback: play, probe, and watch together.",
        version: "tandem \(Tandem.version) (party protocol \(PartyProtocol.version))",
        subcommands: [PlayCommand.self, ProbeCommand.self, ServeCommand.self, HostCommand.self, JoinCommand.self, SimulateCommand.self, StoriesCommand.self, BenchCommand.self]
    )

    /// This release of Tandem (the party protocol has its own version, which peers compare).
    package static let version = "0.7.0"

    public init() {}
}

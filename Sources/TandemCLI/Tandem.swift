import ArgumentParser
import PartyKit

@main
struct Tandem: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Synchronized video playback: play, probe, and watch together.",
        version: "tandem \(Tandem.version) (party protocol \(PartyProtocol.version))",
        subcommands: [PlayCommand.self, ProbeCommand.self, ServeCommand.self, HostCommand.self, JoinCommand.self, SimulateCommand.self, StoriesCommand.self, BenchCommand.self]
    )

    /// This release of Tandem (the party protocol has its own version, which peers compare).
    static let version = "0.7.0"
}

func printError(_ message: String) {
    FileHandleOutput.standardError.write("tandem: \(message)\n")
}

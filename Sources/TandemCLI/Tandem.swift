import ArgumentParser

@main
struct Tandem: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem",
        abstract: "Synchronized video playback: play, probe, and watch together.",
        subcommands: [PlayCommand.self, ProbeCommand.self, ServeCommand.self, HostCommand.self, JoinCommand.self, SimulateCommand.self, StoriesCommand.self, BenchCommand.self]
    )
}

func printError(_ message: String) {
    FileHandleOutput.standardError.write("tandem: \(message)\n")
}

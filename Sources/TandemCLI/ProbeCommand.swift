import ArgumentParser
import FFmpegKit
import Foundation

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print a file's container, duration and streams as JSON."
    )

    @Argument(help: "The media file.") var file: String

    func run() throws {
        FFmpegLog.configure()
        do {
            let input = try InputFile(url: file)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(input.info())
            FileHandleOutput.standardOutput.write(String(decoding: data, as: UTF8.self) + "\n")
        } catch let error as OpenError {
            printError(error.description)
            throw ExitCode.failure
        }
    }
}

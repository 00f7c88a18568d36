import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print a file's or URL's container, duration and streams as JSON.",
        discussion: "Exits 1 with the reason when it cannot be opened, or when an http(s) server does not support byte ranges."
    )

    @Argument(help: "The media file, or an http(s)/HLS URL.") var file: String

    func run() throws {
        FFmpegLog.configure()
        do {
            let input = try InputFile(url: file)
            // An http(s) file without byte ranges cannot be sought in nor be a party item: say so.
            try input.requireByteRanges()
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

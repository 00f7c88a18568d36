import TandemApp
import ArgumentParser
import Foundation
import PartyKit

struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a watch party by its link (tandem://HOST:PORT/party/ID?key=SECRET&fp=FINGERPRINT)."
    )

    @Argument(help: "The party link.") var link: String
    @Option(help: "Your name.") var name = ProcessInfo.processInfo.environment["USER"] ?? "guest"
    @Flag(help: "No window and no sound output unless --ao asks for one (otherwise a window with sound; keys as in mpv, < > change item).")
    var headless = false
    @OptionGroup(title: "Sound") var soundOutput: SoundOutputOptions
    @OptionGroup(title: "Pictures") var pictures: PictureOptions
    @Option(help: "Folders to find the party's media in (default: . and assets).") var media: [String] = []
    @Option(help: "Commands at seconds after joining (when control is open to everyone).") var script: String?
    @Option(help: "Leave after this many seconds.") var duration: Double?
    @Flag(help: "Events as JSON lines.") var json = false
    @Option(help: "Serve a subset of mpv's JSON IPC on this UNIX socket (see docs/ipc.md).") var ipc: String?
    @Option(help: ArgumentHelp("Also trust this root certificate (PEM) for a link without fp (a private CA).", valueName: "file"))
    var ca: String?
    @OptionGroup var subtitleOptions: PartySubtitleOptions
    @OptionGroup var security: SecurityOptions

    func validate() throws {
        if let room = try SyncplayLink.parse(link) { return try syncplayJoin(room).validate() }
        _ = try parsedLink()
        if let script { _ = try PartyScript(parsing: script) }
        if let ca, !FileManager.default.isReadableFile(atPath: ca) { throw ValidationError("--ca \(ca): no such readable file") }
    }
    /// `syncplay://HOST[:PORT]/ROOM` joins a Syncplay room instead (Sources/TandemCLI/Syncplay).
    @OptionGroup(title: "Syncplay rooms (syncplay://HOST[:PORT]/ROOM)") var syncplay: SyncplayJoinOptions

    func parsedLink() throws -> PartyLink {
        do { return try PartyLink(parsing: link) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        if let room = try SyncplayLink.parse(link) { return try await syncplayJoin(room).run() }
        let status = await JoinSession(options: try options()).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// What the join session reads of these options.
    func options() throws -> JoinOptions {
        var options = try JoinOptions(link: try parsedLink(), name: name, headless: headless, sound: soundOutput.sound(headless: headless),
                    mediaFolders: media.isEmpty ? [".", "assets"] : media, script: try script.map(PartyScript.init(parsing:)),
                    duration: duration, json: json, ipc: ipc, ca: ca, subtitles: subtitleOptions.subtitles, insecure: security.insecure)
        options.videoSync = pictures.videoSync
        return options
    }
}

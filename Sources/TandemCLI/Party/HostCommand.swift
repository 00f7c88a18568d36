import TandemBase
import TandemApp
import ArgumentParser
import Foundation
import PartyKit
import PortMapping

struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Host a watch party: prints the link others join with. Without --server, serves it too."
    )

    @Argument(help: "Media files, http(s)/HLS URLs of media, or links to web pages (resolved here through yt-dlp: everyone plays the format chosen; a playlist page gives its videos), in party order. Several make a story party: each plays to its end, then the next.")
    var files: [String]
    @Option(help: "A party server to create the party on (default: serve it here).") var server: HostPort?
    @Option(help: "Where to serve the party when there is no --server.") var listen = HostPort(host: "0.0.0.0", port: 7777)
    @Option(help: "Your name.") var name = "host"
    @Flag(help: "When you leave, the longest-present participant becomes host instead of the party ending.") var handoff = false
    @Option(help: "Who may play, pause, seek and change rate: host or everyone.") var control: ControlPolicy = .host
    @Option(help: "Party ID (default: a generated one).") var party: String?
    @Option(help: "Join secret (default: a generated one).") var key: String?
    @Flag(help: "No window and no sound output unless --ao asks for one (otherwise a window with sound; keys as in mpv, < > change item).")
    var headless = false
    @OptionGroup(title: "Sound") var soundOutput: SoundOutputOptions
    @OptionGroup(title: "Pictures") var pictures: PictureOptions
    @Option(help: "Commands at seconds after joining, e.g. \"play@1,pause@5,seek:10@7,rate:1.5@9\".") var script: String?
    @Option(help: "Leave (ending the party) after this many seconds.") var duration: Double?
    @Option(name: .customLong("live-delay"),
            help: ArgumentHelp("A live stream's party holds this far behind the live edge (default: three segments, as HLS players do).",
                               valueName: "seconds"))
    var liveDelay: Double?
    @Flag(help: "Events as JSON lines.") var json = false
    @Option(help: "Serve a subset of mpv's JSON IPC on this UNIX socket (see docs/ipc.md).") var ipc: String?
    @Option(help: ArgumentHelp("The --server's certificate fingerprint (as `tandem serve` prints it); default: trust on first use.",
                               valueName: "fp"))
    var serverFp: String?
    @Option(help: ArgumentHelp("Also trust this root certificate (PEM) when verifying the --server (a private CA).", valueName: "file"))
    var ca: String?
    @Option(help: SyncplayGatewayOption.help) var syncplay: SyncplayGatewayOption?
    @Flag(name: .customLong("no-port-mapping"), help: "Do not ask the router to forward a port to this party (PCP, NAT-PMP, UPnP).")
    var noPortMapping = false
    @Option(name: .customLong("public-address"),
            help: ArgumentHelp("Where guests on the internet dial when you forwarded a port by hand (then no port mapping); default port: the party's.",
                               valueName: "host[:port]"))
    var publicAddress: String?
    @OptionGroup var subtitleOptions: PartySubtitleOptions
    @OptionGroup(title: "Page links") var pageLinks: PageLinkOptions
    @OptionGroup var security: SecurityOptions
    @OptionGroup var serving: ServingOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one media file") }
        if let serverFp {
            guard server != nil else { throw ValidationError("--server-fp goes with --server") }
            guard PartyLink.isFingerprint(serverFp) else { throw ValidationError("--server-fp must be a fingerprint as `tandem serve` prints it") }
        }
        if server != nil, syncplay != nil { throw ValidationError("--syncplay serves Syncplay clients here: `tandem serve --syncplay` on the --server") }
        if server != nil, serving.cert != nil { throw ValidationError("--cert is for serving the party here, not with --server") }
        if security.insecure, serving.cert != nil || serverFp != nil || ca != nil {
            throw ValidationError("--insecure contradicts --cert, --server-fp and --ca")
        }
        if let script { _ = try PartyScript(parsing: script) }
        if let liveDelay, !(liveDelay >= 0 && liveDelay.isFinite) { throw ValidationError("--live-delay must be a number of seconds, 0 or more") }
        if let party, party.isEmpty || party.contains("/") || party.contains("?") { throw ValidationError("--party must be a plain name") }
        if server != nil, noPortMapping || publicAddress != nil {
            throw ValidationError("--no-port-mapping and --public-address are for serving the party here, not with --server")
        }
        if let publicAddress {
            do { _ = try PublicAddress(parsing: publicAddress) } catch { throw ValidationError("--public-address: \(error)") }
        }
    }

    func run() async throws {
        let status = await HostSession(options: try options()).run()
        if status != 0 { throw ExitCode(status) }
    }

    /// What the host session reads of these options.
    func options() throws -> HostOptions {
        var options = try HostOptions(files: files, resolver: pageLinks.resolver, server: server, listen: listen, name: name, handoff: handoff,
                    control: control, party: party, key: key, headless: headless, sound: soundOutput.sound(headless: headless),
                    script: try script.map(PartyScript.init(parsing:)), duration: duration, liveDelay: liveDelay, json: json, ipc: ipc,
                    serverFingerprint: serverFp, ca: ca, syncplay: syncplay?.address, noPortMapping: noPortMapping,
                    publicAddress: publicAddress.flatMap { try? PublicAddress(parsing: $0) }, subtitles: subtitleOptions.subtitles,
                    insecure: security.insecure, state: security.state, cert: serving.cert, certKey: serving.certKey)
        options.videoSync = pictures.videoSync
        return options
    }
}

extension ControlPolicy: ExpressibleByArgument {}

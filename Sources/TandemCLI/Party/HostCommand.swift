import TandemBase
import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation
import SoundOutput
import Logging
import PartyKit
import PartySecurity
import PartyServer
import PartyClient
import PlayerCore
import PortMapping
import SyncplayGateway
import WebMedia
import Synchronization

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
    @Option(help: "Commands at seconds after joining, e.g. \"play@1,pause@5,seek:10@7,rate:1.5@9\".") var script: String?
    @Option(help: "Leave (ending the party) after this many seconds.") var duration: Double?
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
        if let party, party.isEmpty || party.contains("/") || party.contains("?") { throw ValidationError("--party must be a plain name") }
        if server != nil, noPortMapping || publicAddress != nil {
            throw ValidationError("--no-port-mapping and --public-address are for serving the party here, not with --server")
        }
        if let publicAddress {
            do { _ = try PublicAddress(parsing: publicAddress) } catch { throw ValidationError("--public-address: \(error)") }
        }
    }

    func run() async throws {
        FFmpegLog.configure()
        // Page links first (yt-dlp): the window is sized after the first item, and the items are what
        // the host resolved.
        let sources: [PartySource]
        do { sources = try await PartySource.sources(files, resolver: pageLinks.resolver, say: { printError($0) }) } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        // Then the window: without a display, say so before anything else is opened.
        let window: PartyWindow?
        do {
            window = headless ? nil : try await PartyWindow.open(title: "Tandem party", files: sources.map(\.opening),
                                                                      subtitles: subtitleOptions.subtitles,
                                                                      sound: soundOutput.sound(headless: false) ?? SoundOptions(outputs: .none))
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let items: [MediaItem]
        do {
            items = try Self.fitting(try await Self.identified(sources), say: { printError($0) })
        } catch {
            printError("\(error)")
            await window?.close()
            throw ExitCode.failure
        }
        let headlessSound = headless ? soundOutput.headlessSound() : nil
        defer { headlessSound?.close() }
        var logger = Logger(label: "tandem.host")
        logger.logLevel = .warning
        var rng = SystemRandomNumberGenerator()
        let partyID = party ?? PartyLink.generateID(using: &rng)
        let secret = key ?? PartyLink.generateKey(using: &rng)
        security.warnIfInsecure()
        var serverRunner: PartyServerRunner?
        var gateway: SyncplayGatewayServer?
        /// The served party's own certificate fingerprint (nil: insecure): what its reachability check expects.
        var servedFingerprint: String?
        let target: HostPort
        /// How this host trusts the party server, and the fingerprint its link carries.
        let trust: ServerTrust
        let linkFingerprint: String?
        if let server {
            target = server
            let connectHost = server.host == "0.0.0.0" || server.host == "::" ? "127.0.0.1" : server.host
            do {
                let decided = try await Self.trust(server: HostPort(host: connectHost, port: server.port), pinned: serverFp,
                                                   ca: ca, security: security)
                trust = decided.0
                linkFingerprint = decided.1
            } catch {
                printError("\(error)")
                await window?.close()
                throw ExitCode.failure
            }
        } else {
            let runner: PartyServerRunner
            var identity: ServerIdentity?
            do {
                identity = security.insecure ? nil : try serving.identity(security)
                runner = PartyServerRunner(host: listen.host, port: listen.port, tls: try identity?.makeServerContext(), logger: logger)
                // The host's own member pins its own certificate, whatever names it carries.
                trust = identity.map { .pinned($0.fingerprint) } ?? .insecure
                servedFingerprint = identity?.fingerprint
                linkFingerprint = identity?.selfSigned == true ? identity?.fingerprint : nil
            } catch {
                printError("\(error)")
                await window?.close()
                throw ExitCode.failure
            }
            do {
                let port = try await runner.start()
                target = HostPort(host: listen.host, port: port)
            } catch {
                printError("cannot listen on \(listen): \(error)")
                await window?.close()
                throw ExitCode.failure
            }
            serverRunner = runner
            do { gateway = try await syncplay?.start(parties: runner, identity: identity, defaultHost: listen.host, logger: logger, say: printError) } catch {
                await runner.stop()
                await window?.close()
                throw error
            }
            // This host serves its own files to members without a copy, and what browsers play of
            // them (remuxed segments, AAC sound, WebVTT subtitles) to guests in a browser.
            let local = Self.localFiles(Array(sources.prefix(items.count)))
            runner.media.serve(party: partyID, key: secret, files: local, web: WebMediaConverter(files: local, items: items))
        }
        let connectHost = target.host == "0.0.0.0" || target.host == "::" ? "127.0.0.1" : target.host
        let output = PartyOutput(json: json)
        // Serving here: the internet link (the router's mapping, or --public-address) first, then the
        // LAN link. On a --server, the server's address.
        let reach: ServingReach? = server != nil ? nil
            : startReach(port: target.port, output: output, servedFingerprint: servedFingerprint) { address in
                PartyLink(host: address.host, port: address.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                          insecure: security.insecure)
            }
        if server != nil {
            // A server on every address of this machine: its LAN address, which others can dial.
            let everywhere = target.host == "0.0.0.0" || target.host == "::"
            let shownHost = everywhere ? InterfaceAddresses.lanAddress()?.description ?? "127.0.0.1" : target.host
            output.link(PartyLink(host: shownHost, port: target.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                                  insecure: security.insecure))
        }
        let config = PartyConfig(items: items, control: control, handoff: handoff)
        let folders = Array(Set(files.filter { !$0.contains("://") }.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }))
        let ownLink = PartyLink(host: connectHost, port: target.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                                insecure: security.insecure)
        let member = PartyMember(options: .init(
            link: ownLink, name: name, create: config,
            mediaFolders: folders, playerOptions: window?.playerOptions ?? MemberSession.headlessPlayerOptions(sound: headlessSound), advanceAtEnd: items.count > 1,
            trust: trust, logger: logger)) { notice in
            output.notice(notice)
            window?.board.post(notice)
        }
        // On a party server, this host's files reach members without a copy through its relay
        // connection (opened once the party exists; the server never dials the host).
        let localFiles = Self.localFiles(Array(sources.prefix(items.count)))
        let relay = server == nil || localFiles.isEmpty ? nil
            : MediaUpstream(link: ownLink, files: localFiles, seat: { await member.seatToken }, trust: trust,
                            node: member.node, web: WebMediaConverter(files: localFiles, items: items), logger: logger)
        let relayTask = Mutex<Task<Void, Never>?>(nil)
        let status = await MemberSession.run(member, output: output, script: try script.map(PartyScript.init(parsing:)),
                                             duration: duration, ipc: ipc, window: window, afterJoin: {
            guard let relay else { return }
            relayTask.withLock { $0 = Task { await relay.run() } }
        })
        if let task = relayTask.withLock({ $0 }) {
            task.cancel()
            await task.value
        }
        // The router's mapping goes first: nothing new should arrive at a party that is closing.
        await reach?.stop()
        await gateway?.stop()
        await serverRunner?.stop()
        if status != 0 { throw ExitCode(status) }
    }
}

extension HostCommand {
    /// How a host trusts its `--server`, and the fingerprint its link carries: plain with `--insecure`;
    /// pinned to `--server-fp`; verified (no fingerprint in the link) when the certificate chains to a
    /// trusted root and names the host; otherwise pinned to what the server shows, trusted on first use
    /// and remembered in the state folder (a changed fingerprint is refused).
    static func trust(server: HostPort, pinned: String?, ca: String?, security: SecurityOptions) async throws
        -> (ServerTrust, String?) {
        if security.insecure { return (.insecure, nil) }
        if let pinned { return (.pinned(pinned), pinned) }
        let roots = ca.map { [$0] } ?? []
        if await ServerProbe.verifies(host: server.host, port: server.port, extraRoots: roots) {
            return (.verified(extraRoots: roots), nil)
        }
        let seen = try await ServerProbe.fingerprint(host: server.host, port: server.port)
        let known = KnownServers(state: security.state)
        if try known.check(address: server.description, seen: seen) == .remembered {
            printError("trusting \(server) on first use: fingerprint \(seen) (remembered in \(known.path))")
        }
        return (.pinned(seen), seen)
    }
}

extension ControlPolicy: ExpressibleByArgument {}

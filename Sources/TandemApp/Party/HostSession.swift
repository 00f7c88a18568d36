import FFmpegKit
import Foundation
import Logging
import PartyClient
import PartyKit
import PartySecurity
import PartyServer
import PortMapping
import SoundOutput
import SyncplayGateway
import Synchronization
import TandemBase
import TandemWindow
import WebMedia

/// `tandem host` composed from its options: the party's items (page links through yt-dlp first,
/// so that the window is sized after the first item), the window, the party served here (its own
/// server, Syncplay gateway, media and the router's port) or created on a `--server` (this host's
/// files relayed to it), and the host's own member in ``MemberSession``.
package struct HostSession: Sendable {
    package let options: HostOptions

    package init(options: HostOptions) { self.options = options }

    /// Where the party runs: its server's address, how this host trusts it, and what serves it here.
    private struct Place {
        var target: HostPort
        /// How this host trusts the party server, and the fingerprint its link carries.
        var trust: ServerTrust
        var linkFingerprint: String?
        /// The served party's own certificate fingerprint (nil: insecure or not served here): what
        /// its reachability check expects.
        var servedFingerprint: String?
        var serverRunner: PartyServerRunner?
        var gateway: SyncplayGatewayServer?
    }

    /// Hosts the party until leaving (`q`, `--duration`, SIGINT/SIGTERM). Returns the exit status:
    /// 1 when the party could not be started (said on standard error).
    package func run() async -> Int32 {
        FFmpegLog.configure()
        // Page links first (yt-dlp): the window is sized after the first item, and the items are what
        // the host resolved.
        let sources: [PartySource]
        do { sources = try await PartySource.sources(options.files, resolver: options.resolver, say: { printError($0) }) } catch {
            printError(error.description)
            return 1
        }
        // Then the window: without a display, say so before anything else is opened.
        let window: PartyWindow?
        do {
            window = options.headless ? nil : try await PartyWindow.open(title: "Tandem party", files: sources.map(\.opening),
                                                                              subtitles: options.subtitles,
                                                                              sound: options.sound ?? SoundOptions(outputs: .none),
                                                                              videoSync: options.videoSync)
        } catch {
            printError(error.description)
            return 1
        }
        let items: [MediaItem]
        do {
            items = try Self.fitting(try await Self.identified(sources, liveDelay: options.liveDelay), say: { printError($0) })
        } catch {
            printError("\(error)")
            await window?.close()
            return 1
        }
        if options.liveDelay != nil, !items.contains(where: { $0.live?.delay != nil }) {
            printError("--live-delay holds a live HLS stream's party behind its edge: no item here is one (it is ignored)")
        }
        let headlessSound = options.headless ? options.sound.map { SharedSound($0, warn: { printError($0) }) } : nil
        defer { headlessSound?.close() }
        var logger = Logger(label: "tandem.host")
        logger.logLevel = .warning
        var rng = SystemRandomNumberGenerator()
        let partyID = options.party ?? PartyLink.generateID(using: &rng)
        let secret = options.key ?? PartyLink.generateKey(using: &rng)
        InsecureWarning.say(if: options.insecure)
        guard let place = await place(sources: sources, items: items, partyID: partyID, secret: secret, logger: logger) else {
            await window?.close()
            return 1
        }
        let (target, linkFingerprint, insecure) = (place.target, place.linkFingerprint, options.insecure)
        let connectHost = target.host == "0.0.0.0" || target.host == "::" ? "127.0.0.1" : target.host
        let output = PartyOutput(json: options.json)
        // Serving here: the internet link (the router's mapping, or --public-address) first, then the
        // LAN link. On a --server, the server's address.
        let reach: ServingReach? = options.server != nil ? nil
            : startReach(port: target.port, output: output, servedFingerprint: place.servedFingerprint) { address in
                PartyLink(host: address.host, port: address.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                          insecure: insecure)
            }
        if options.server != nil {
            // A server on every address of this machine: its LAN address, which others can dial.
            let everywhere = target.host == "0.0.0.0" || target.host == "::"
            let shownHost = everywhere ? InterfaceAddresses.lanAddress()?.description ?? "127.0.0.1" : target.host
            output.link(PartyLink(host: shownHost, port: target.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                                  insecure: insecure))
        }
        let config = PartyConfig(items: items, control: options.control, handoff: options.handoff)
        let folders = Array(Set(options.files.filter { !$0.contains("://") }.map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().path
        }))
        let ownLink = PartyLink(host: connectHost, port: target.port, party: partyID, key: secret, fingerprint: linkFingerprint,
                                insecure: insecure)
        let member = PartyMember(options: .init(
            link: ownLink, name: options.name, create: config,
            mediaFolders: folders, playerOptions: window?.playerOptions ?? MemberSession.headlessPlayerOptions(sound: headlessSound),
            advanceAtEnd: items.count > 1, trust: place.trust, logger: logger)) { notice in
            output.notice(notice)
            window?.board.post(notice)
        }
        // On a party server, this host's files reach members without a copy through its relay
        // connection (opened once the party exists; the server never dials the host).
        let localFiles = Self.localFiles(Array(sources.prefix(items.count)))
        let relay = options.server == nil || localFiles.isEmpty ? nil
            : MediaUpstream(link: ownLink, files: localFiles, seat: { await member.seatToken }, trust: place.trust,
                            node: member.node, web: WebMediaConverter(files: localFiles, items: items), logger: logger)
        let relayTask = Mutex<Task<Void, Never>?>(nil)
        let refreshTask = Mutex<Task<Void, Never>?>(nil)
        let refresh = LinkRefresh(sources: Array(sources.prefix(items.count)))
        let resolver = options.resolver
        let status = await MemberSession.run(member, output: output, script: options.script, duration: options.duration,
                                             ipc: options.ipc, window: window, afterJoin: {
            if let resolver, !refresh.isEmpty {
                refreshTask.withLock { $0 = Task { await Self.refreshLinks(refresh, member: member, resolver: resolver) } }
            }
            guard let relay else { return }
            relayTask.withLock { $0 = Task { await relay.run() } }
        })
        for task in [relayTask.withLock({ $0 }), refreshTask.withLock({ $0 })].compactMap({ $0 }) {
            task.cancel()
            await task.value
        }
        // The router's mapping goes first: nothing new should arrive at a party that is closing.
        await reach?.stop()
        await place.gateway?.stop()
        await place.serverRunner?.stop()
        return status
    }

    /// The party's server: the `--server` (trusted as ``trust(server:pinned:ca:insecure:state:)``
    /// decides), or one served here with its Syncplay gateway and this host's media. Nil when it
    /// cannot be had (said on standard error).
    private func place(sources: [PartySource], items: [MediaItem], partyID: String, secret: String, logger: Logger) async -> Place? {
        if let server = options.server {
            let connectHost = server.host == "0.0.0.0" || server.host == "::" ? "127.0.0.1" : server.host
            do {
                let decided = try await Self.trust(server: HostPort(host: connectHost, port: server.port), pinned: options.serverFingerprint,
                                                   ca: options.ca, insecure: options.insecure, state: options.state)
                return Place(target: server, trust: decided.0, linkFingerprint: decided.1)
            } catch {
                printError("\(error)")
                return nil
            }
        }
        let listen = options.listen
        let runner: PartyServerRunner
        let identity: ServerIdentity?
        do {
            identity = options.insecure ? nil : try Self.identity(cert: options.cert, certKey: options.certKey, state: options.state)
            runner = PartyServerRunner(host: listen.host, port: listen.port, tls: try identity?.makeServerContext(), logger: logger)
        } catch {
            printError("\(error)")
            return nil
        }
        // The host's own member pins its own certificate, whatever names it carries.
        var place = Place(target: listen, trust: identity.map { .pinned($0.fingerprint) } ?? .insecure,
                          linkFingerprint: identity?.selfSigned == true ? identity?.fingerprint : nil,
                          servedFingerprint: identity?.fingerprint)
        do {
            let port = try await runner.start()
            place.target = HostPort(host: listen.host, port: port)
        } catch {
            printError("cannot listen on \(listen): \(error)")
            return nil
        }
        place.serverRunner = runner
        if let syncplay = options.syncplay {
            // Where the gateway listens goes to standard error: standard output is the link or JSON lines.
            do {
                let (gateway, line) = try await SyncplayGatewayServer.start(at: syncplay.resolved(defaultHost: listen.host), parties: runner,
                                                                            identity: identity, logger: logger)
                printError(line)
                place.gateway = gateway
            } catch {
                printError(error.description)
                await runner.stop()
                return nil
            }
        }
        // This host serves its own files to members without a copy, and what browsers play of
        // them (remuxed segments, AAC sound, WebVTT subtitles) to guests in a browser.
        let local = Self.localFiles(Array(sources.prefix(items.count)))
        runner.media.serve(party: partyID, key: secret, files: local, web: WebMediaConverter(files: local, items: items))
        return place
    }
}

import PartyKit
import PartySecurity
import PortMapping
import SoundOutput
import SyncplayGateway
import TandemBase
import TandemWindow

/// What `tandem host` is asked to do, as plain values: the party's items, where it is served (here,
/// or on a `--server`), how it is reached and trusted, and the host's own member.
package struct HostOptions: Sendable {
    /// Media files, URLs of media and page links, in party order.
    package var files: [String]
    /// Resolves page links (nil: `--no-ytdl`).
    package var resolver: PageLinkResolver?
    /// A party server to create the party on (nil: serve it here).
    package var server: HostPort?
    /// Where to serve the party when there is no ``server``.
    package var listen: HostPort
    /// The host's name.
    package var name: String
    /// `--handoff`: when the host leaves, the longest-present member becomes host.
    package var handoff: Bool
    /// Who may play, pause, seek and change rate.
    package var control: ControlPolicy
    /// The party's ID and key (nil: generated).
    package var party: String?
    package var key: String?
    /// No window: sound only when ``sound`` says so.
    package var headless: Bool
    /// The sound outputs: the window's (nil: none), or headless the `--ao` asked for (nil: paced without one).
    package var sound: SoundOptions?
    /// `--video-sync`: what places the window's pictures.
    package var videoSync: VideoSync = .audio
    /// `--script`: commands at seconds after joining.
    package var script: PartyScript?
    /// `--duration`: leave (ending the party) after this many seconds.
    package var duration: Double?
    /// `--live-delay`: a live stream's party holds this far behind the edge (nil: three segments).
    package var liveDelay: Double?
    /// Events as JSON lines (`--json`).
    package var json: Bool
    /// `--ipc`: the mpv IPC socket's path.
    package var ipc: String?
    /// `--server-fp`: the ``server``'s fingerprint (nil: trust on first use).
    package var serverFingerprint: String?
    /// `--ca`: a root certificate (PEM) also trusted when verifying the ``server``.
    package var ca: String?
    /// `--syncplay`: where a Syncplay gateway in front of the party served here listens.
    package var syncplay: SyncplayGatewayAddress?
    /// `--no-port-mapping` and `--public-address`: how guests on the internet reach a party served here.
    package var noPortMapping: Bool
    package var publicAddress: PublicAddress?
    /// The host's own subtitle choice for every item.
    package var subtitles: PartySubtitles
    /// `--insecure`: no TLS.
    package var insecure: Bool
    /// The state folder: the served party's certificate, the servers trusted on first use.
    package var state: StateDirectory
    /// `--cert`/`--cert-key`: the served party's certificate (nil: the state folder's self-signed one).
    package var cert: String?
    package var certKey: String?

    package init(files: [String], resolver: PageLinkResolver?, server: HostPort?, listen: HostPort, name: String, handoff: Bool,
                 control: ControlPolicy, party: String?, key: String?, headless: Bool, sound: SoundOptions?, script: PartyScript?,
                 duration: Double?, liveDelay: Double? = nil, json: Bool, ipc: String?, serverFingerprint: String?, ca: String?, syncplay: SyncplayGatewayAddress?,
                 noPortMapping: Bool, publicAddress: PublicAddress?, subtitles: PartySubtitles, insecure: Bool, state: StateDirectory,
                 cert: String?, certKey: String?) {
        self.files = files
        self.resolver = resolver
        self.server = server
        self.listen = listen
        self.name = name
        self.handoff = handoff
        self.control = control
        self.party = party
        self.key = key
        self.headless = headless
        self.sound = sound
        self.script = script
        self.duration = duration
        self.liveDelay = liveDelay
        self.json = json
        self.ipc = ipc
        self.serverFingerprint = serverFingerprint
        self.ca = ca
        self.syncplay = syncplay
        self.noPortMapping = noPortMapping
        self.publicAddress = publicAddress
        self.subtitles = subtitles
        self.insecure = insecure
        self.state = state
        self.cert = cert
        self.certKey = certKey
    }
}

import FFmpegKit
import Logging
import PartyClient
import PartyKit
import PartySecurity
import SoundOutput
import TandemWindow

/// What `tandem join` of a party link is asked to do, as plain values.
package struct JoinOptions: Sendable {
    /// The party's link (an insecure one is joined only with ``insecure``).
    package var link: PartyLink
    /// The member's name.
    package var name: String
    /// No window: sound only when ``sound`` says so.
    package var headless: Bool
    /// The sound outputs: the window's (nil: none), or headless the `--ao` asked for (nil: paced without one).
    package var sound: SoundOptions?
    /// `--video-sync`: what places the window's pictures.
    package var videoSync: VideoSync = .audio
    /// Folders the party's media is looked for in, as local copies.
    package var mediaFolders: [String]
    /// `--script`: commands at seconds after joining.
    package var script: PartyScript?
    /// `--duration`: leave after this many seconds.
    package var duration: Double?
    /// Events as JSON lines (`--json`).
    package var json: Bool
    /// `--ipc`: the mpv IPC socket's path.
    package var ipc: String?
    /// `--ca`: a root certificate (PEM) also trusted for a link without a fingerprint.
    package var ca: String?
    /// The member's own subtitle choice for every item.
    package var subtitles: PartySubtitles
    /// `--insecure`: a plain (tandem+insecure://) party is accepted.
    package var insecure: Bool

    package init(link: PartyLink, name: String, headless: Bool, sound: SoundOptions?, mediaFolders: [String], script: PartyScript?,
                 duration: Double?, json: Bool, ipc: String?, ca: String?, subtitles: PartySubtitles, insecure: Bool) {
        self.link = link
        self.name = name
        self.headless = headless
        self.sound = sound
        self.mediaFolders = mediaFolders
        self.script = script
        self.duration = duration
        self.json = json
        self.ipc = ipc
        self.ca = ca
        self.subtitles = subtitles
        self.insecure = insecure
    }
}

/// `tandem join` of a party link composed from its options: an insecure party refused unless
/// accepted, the window (or headless sound), the member, and ``MemberSession`` around it.
package struct JoinSession: Sendable {
    package let options: JoinOptions

    package init(options: JoinOptions) { self.options = options }

    /// Joins the party and stays until leaving (`q`, `--duration`, SIGINT/SIGTERM) or the party's
    /// end. Returns the exit status: 1 when the party could not be joined (said on standard error).
    package func run() async -> Int32 {
        let link = options.link
        // An insecure link is refused before anything is opened, unless --insecure accepts it.
        if link.insecure {
            guard options.insecure else {
                printError("\(link.host):\(link.port) runs an insecure party (tandem+insecure://): the key, chat and media "
                           + "would cross the network unencrypted; join with --insecure to accept that")
                return 1
            }
            InsecureWarning.say(if: options.insecure)
        }
        FFmpegLog.configure()
        // The window first: without a display, say so before anything else is opened.
        let window: PartyWindow?
        do {
            window = options.headless ? nil : try await PartyWindow.open(title: "Tandem party", files: [],
                                                                              subtitles: options.subtitles,
                                                                              sound: options.sound ?? SoundOptions(outputs: .none),
                                                                              videoSync: options.videoSync)
        } catch {
            printError(error.description)
            return 1
        }
        let headlessSound = options.headless ? options.sound.map { SharedSound($0, warn: { printError($0) }) } : nil
        defer { headlessSound?.close() }
        var logger = Logger(label: "tandem.join")
        logger.logLevel = .warning
        let output = PartyOutput(json: options.json)
        let member = PartyMember(options: .init(
            link: link, name: options.name, mediaFolders: options.mediaFolders,
            playerOptions: window?.playerOptions ?? MemberSession.headlessPlayerOptions(sound: headlessSound),
            trust: ServerTrust(link: link, extraRoots: options.ca.map { [$0] } ?? []), logger: logger)) { notice in
            output.notice(notice)
            window?.board.post(notice)
        }
        return await MemberSession.run(member, output: output, script: options.script, duration: options.duration,
                                       ipc: options.ipc, window: window)
    }
}

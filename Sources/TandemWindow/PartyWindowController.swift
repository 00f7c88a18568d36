import Foundation
import PlayerCore

/// mpv's keys in a party: play, pause, seek and story changes are requests to the party (the server
/// schedules them for everyone, or refuses them and a toast says why); volume, mute, fullscreen
/// and screenshots are local. Enter opens the chat line (``ChatLineState``, see
/// `PartyWindowController+Chat.swift`). Once the party has ended the window keeps its last picture
/// and says so until the viewer closes it.
@WindowActor
public final class PartyWindowController: WindowController {
    let member: any PartyControls
    let sinks: StorySinks
    let view: PartyView
    let board: NoticeBoard
    var toasts = ToastQueue()
    var chat = ChatLineState()
    public private(set) var quit = false
    /// Why the party ended, once it has: the window stays, frozen on its last scene, saying so.
    public private(set) var endReason: String?
    /// The member's state as last shown (kept as it was once the party ended).
    private var shown = PartyView.Snapshot()

    public init(member: any PartyControls, sinks: StorySinks, view: PartyView, board: NoticeBoard) {
        self.member = member
        self.sinks = sinks
        self.view = view
        self.board = board
    }

    public func scene(in window: PlayerWindow) -> WindowScene {
        for notice in board.take() {
            toast(notice.toastText)
            if case .ended(let reason) = notice, endReason == nil { endReason = reason }
        }
        if endReason == nil { shown = view.snapshot }
        let snapshot = shown
        let player = snapshot.player
        let items = snapshot.status?.items ?? 0
        var segments: StorySegments?
        if items > 1, let item = snapshot.item {
            let progress = player.flatMap { p in p.duration.map { $0 > 0 ? min(max(p.position / $0, 0), 1) : 0 } } ?? 0
            segments = StorySegments(index: item, count: items, progress: progress)
        }
        var status = snapshot.status.map(Self.statusLine)
        if let endReason { status = Self.endedLine(endReason) }
        var scene = WindowScene(primary: snapshot.item.flatMap { sinks.video(for: $0) }, position: player?.position ?? 0,
                                duration: player?.duration, segments: segments, status: status, toasts: toasts.toasts,
                                paused: endReason != nil || player?.state != .playing, volume: sinks.volume, muted: sinks.muted)
        scene.chatLine = chat.text
        scene.behindLive = snapshot.status?.behindLive
        return scene
    }

    /// The status line once the party is over: it stays until the window is closed.
    static func endedLine(_ reason: String) -> String {
        (reason.isEmpty ? "Party ended" : "Party ended: \(reason)") + " · q closes the window"
    }

    /// "party abc · 3 watching · skew +0.42 ms · pulse on speakers: 92 ms reported" (or "syncing",
    /// "reconnecting…").
    static func statusLine(_ s: PartyView.Status) -> String {
        var line = "party \(s.party) · \(s.watching) watching"
        if !s.connected { line += " · reconnecting…" } else if !s.synced { line += " · syncing" }
        if let skew = s.skewMs { line += String(format: " · skew %+.2f ms", skew) }
        if let output = s.output { line += " · \(output)" }
        return line
    }

    public func handle(_ command: WindowCommand, window: PlayerWindow) {
        let member = member
        let snapshot = shown
        if endReason != nil {
            // Nobody to ask any more: only the window's own keys work.
            switch command {
            case .screenshot, .toggleFullscreen, .toggleMute, .volume, .audioDelay: sinks.handleLocal(command, window: window, toast: toast)
            case .quit:
                quit = true
                window.stop()
            default: toast("The party has ended")
            }
            return
        }
        let position = snapshot.player?.position ?? 0
        switch command {
        case .togglePause:
            let playing = snapshot.player?.state == .playing
            Task { await member.request(playing ? .pause : .play) }
        case .seek(let delta):
            var target = max(0, position + delta)
            if let duration = snapshot.player?.duration { target = min(target, duration) }
            Task { await member.request(.seek(to: target)) }
        case .previousStory, .nextStory:
            guard let item = snapshot.item else { return }
            let next = item + (command == .nextStory ? 1 : -1)
            guard next >= 0, next < (snapshot.status?.items ?? 0) else { return }
            Task { await member.request(.item(next)) }
        case .step:
            toast("Frame step is not available in a party")
        case .goLive:
            Task { await member.request(.live) }
        case .screenshot, .toggleFullscreen, .toggleMute, .volume, .audioDelay:
            sinks.handleLocal(command, window: window, toast: toast)
        case .cycleSubtitles, .toggleSubtitles, .subtitleDelay, .cycleAudio:
            // Each member's own choice: nothing goes to the party.
            if let player = snapshot.player { toast(TrackCommands.apply(command, to: player)) }
        case .quit:
            guard !quit else { return }
            quit = true
            Task { await member.leave() }
            window.stop()
        }
    }

    func toast(_ text: String) { toasts.post(text) }
}

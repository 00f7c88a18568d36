import DequeModule

/// One party as the server keeps it: its timeline, its seats and its chat.
struct PartyState: Sendable {
    struct Seat: Sendable {
        var info: ParticipantInfo
        var token: String
        var connection: Int?
        var disconnectedAt: Double?
        var status: Status.State = .syncing
        var statusEpoch = 0
        var rtt: Double?
        /// The group waited its time for this seat's stall and went on without it: its further
        /// stalls do not pause the group again until it has reported ready (caught up) since.
        var waitedOut = false
    }

    let id: String
    let key: String
    var config: PartyConfig
    var timeline: Timeline
    var seats: [String: Seat] = [:]
    var chat = Deque<ChatMessage>()
    var nextSeat = 1
    /// Participants the group is paused for, and until when it waits.
    var waitingFor: Set<String> = []
    var waitDeadline: Double?

    var hostID: String? { seats.values.first { $0.info.role == .host }?.info.id }
    var connected: [Seat] { seats.values.filter { $0.connection != nil }.sorted { $0.info.joinedAt < $1.info.joinedAt } }
    var participants: [ParticipantInfo] { seats.values.map(\.info).sorted { $0.joinedAt < $1.joinedAt } }

    /// Seconds between deciding a command and its instant: every participant must hear of it first
    /// (the slowest one-way latency, from reported round trips), before its sound output has taken
    /// the sound of that instant (the delay it reports: a Bluetooth headset or a TV holds a tenth of
    /// a second or more), and for a jump, preroll the seek. A rate change must also come before the
    /// sound of its instant is rendered at the old rate (what the member says it renders ahead).
    func lead(jump: Bool, rate: Bool = false) -> Double {
        let worstRTT = seats.values.compactMap(\.rtt).max() ?? 0.1
        let outputs = seats.values.compactMap { $0.connection == nil ? nil : $0.info.presence?.output }
        let committed = outputs.map(\.committed).max() ?? 0
        var ahead = committed + (jump ? PartyServerCore.seekPrerollMargin : PartyServerCore.commandMargin)
        if rate {
            // Members that do not report their output (headless, older) render up to this far ahead.
            ahead = max(ahead, (outputs.map(\.rendered).max() ?? 0) + PartyServerCore.commandMargin,
                        PartyServerCore.seekPrerollMargin)
        }
        return min(max(worstRTT + ahead, PartyServerCore.minLead), PartyServerCore.maxLead)
    }
}

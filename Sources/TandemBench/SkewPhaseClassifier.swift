import TandemApp
/// Which phase of a party each round of `tandem bench party` samples belongs to, as a state
/// machine fed one round at a time: members' positions jump or stop at a pause, a resume or a seek
/// (by design), so rounds within ``transitionWindow`` of one are set aside; the ``settleWindow``
/// right after that is reported on its own (how fast sync comes back), the rest of play is steady.
package struct SkewPhaseClassifier {
    /// One member's reading in a round: its `time-pos`, the instant it applies to (monotonic
    /// seconds) and whether it is paused.
    package struct Reading: Equatable, Sendable {
        package init(position: Double, instant: Double, paused: Bool) {
            self.position = position
            self.instant = instant
            self.paused = paused
        }

        package var position: Double
        package var instant: Double
        package var paused: Bool
    }

    /// Where a round belongs.
    package enum Phase: Equatable, Sendable {
        /// Within ``transitionWindow`` of a change on any member, or some member not read: left out.
        case transition
        /// All playing, no pause, resume or seek in the last ``transitionWindow`` + ``settleWindow``.
        case steady
        /// All playing, within ``settleWindow`` after the end of a resume's transition window.
        case afterResume
        /// All playing, within ``settleWindow`` after the end of a seek's transition window.
        case afterSeek
        /// All paused, outside a transition window: positions should be equal.
        case paused
        /// Some paused and some playing outside a transition window (a member lagging a command).
        case mixed
    }

    /// A change seen on one member between two of its readings.
    package enum Change: Equatable, Sendable {
        case pause, resume, seek
    }

    /// Rounds this close after a change are left out: positions there are discontinuous by design
    /// (a member applies a command up to a network delay after another) and say nothing about sync.
    package static let transitionWindow = 0.5
    /// How long after a resume or seek (once its transition window is over) counts as settling:
    /// the target is stated for the 5 s after each such event.
    package static let settleWindow = 5.0
    /// A position this far from where 1× play (or a pause) would have it is a jump: a seek. Far
    /// above what rate correction or a 1.25× rate moves in one 0.1 s round (≤ 0.025 s).
    package static let jumpTolerance = 0.25

    private var last: [Reading?]
    private var quietUntil = -Double.infinity
    private var settling: (phase: Phase, until: Double)?
    /// The first member's (the host's) pauses, resumes and seeks seen so far.
    package private(set) var hostPauses = 0, hostResumes = 0, hostSeeks = 0

    /// A classifier for rounds of `members` readings, the host first.
    package init(members: Int) {
        last = Array(repeating: nil, count: members)
    }

    /// The change between two consecutive readings of one member, if any.
    package static func change(from previous: Reading, to reading: Reading) -> Change? {
        if reading.paused != previous.paused { return reading.paused ? .pause : .resume }
        let expected = previous.paused ? previous.position : previous.position + (reading.instant - previous.instant)
        return abs(reading.position - expected) > jumpTolerance ? .seek : nil
    }

    /// A round of readings (nil: that member could not be read) completed at `now`: its phase.
    package mutating func roundSampled(_ readings: [Reading?], at now: Double) -> Phase {
        var change: Change?
        for (i, reading) in readings.enumerated() where i < last.count {
            guard let reading else { continue }
            if let previous = last[i], let seen = Self.change(from: previous, to: reading) {
                if i == 0 { count(seen) }
                change = change ?? seen
            }
            last[i] = reading
        }
        if let change {
            quietUntil = now + Self.transitionWindow
            switch change {
            case .pause: settling = nil
            case .resume: settling = (.afterResume, quietUntil + Self.settleWindow)
            case .seek: settling = (.afterSeek, quietUntil + Self.settleWindow)
            }
        }
        let present = readings.compactMap { $0 }
        guard present.count == last.count, now >= quietUntil else { return .transition }
        if present.allSatisfy(\.paused) { return .paused }
        guard present.allSatisfy({ !$0.paused }) else { return .mixed }
        if let settling, now < settling.until { return settling.phase }
        return .steady
    }

    private mutating func count(_ change: Change) {
        switch change {
        case .pause: hostPauses += 1
        case .resume: hostResumes += 1
        case .seek: hostSeeks += 1
        }
    }
}

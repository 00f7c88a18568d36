import MPVIPC
import Testing
@testable import TandemApp
@testable import TandemBench

/// `tandem bench party`'s phases: rounds at a change are left out, the settle windows after a
/// resume and a seek are told apart from steady play and pauses, and the summary line has them.
@Suite struct PartyBenchPhaseTests {
    typealias Reading = SkewPhaseClassifier.Reading
    typealias Phase = SkewPhaseClassifier.Phase

    /// How far ahead of the host the guest plays in the timeline below.
    static let lead = 0.001

    /// Host: paused at 0 until 2 s, plays, seeks to 30 at 10 s, pauses at 16 s. The guest does each
    /// 0.1 s later (one round), playing `lead` ahead and pausing at the host's position.
    static func readings(at t: Double) -> [Reading] {
        func member(lag: Double, lead: Double) -> Reading {
            if t < 2 + lag { return Reading(position: 0, instant: t, paused: true) }
            if t < 10 + lag { return Reading(position: t - 2 + lead, instant: t, paused: false) }
            if t < 16 + lag { return Reading(position: 30 + (t - 10) + lead, instant: t, paused: false) }
            return Reading(position: 36, instant: t, paused: true)
        }
        return [member(lag: 0, lead: 0), member(lag: 0.1, lead: lead)]
    }

    /// Runs the timeline at 10 Hz for 18 s: each round's phase by round number, and the samples.
    static func run() -> (phases: [Phase], classifier: SkewPhaseClassifier, samples: PartySkewPhases) {
        var classifier = SkewPhaseClassifier(members: 2)
        var samples = PartySkewPhases(members: 2)
        var phases: [Phase] = []
        for round in 0...180 {
            let t = Double(round) / 10
            let readings = readings(at: t)
            let phase = classifier.roundSampled(readings, at: t)
            samples.add(readings, phase: phase)
            phases.append(phase)
        }
        return (phases, classifier, samples)
    }

    @Test func roundsFallInTheirPhases() {
        let (phases, classifier, _) = Self.run()
        #expect(phases[5] == .paused)
        #expect(phases[20] == .transition && phases[25] == .transition)  // the guest resumed at 2.1: out until 2.6
        #expect(phases[27] == .afterResume && phases[75] == .afterResume)  // 2.6 … 7.6
        #expect(phases[77] == .steady && phases[99] == .steady)
        #expect(phases[100] == .transition && phases[105] == .transition)
        #expect(phases[107] == .afterSeek && phases[155] == .afterSeek)
        #expect(phases[157] == .steady)
        #expect(phases[161] == .transition && phases[165] == .transition)
        #expect(phases[167] == .paused && phases[180] == .paused)
        #expect(classifier.hostResumes == 1 && classifier.hostSeeks == 1 && classifier.hostPauses == 1)
    }

    @Test func samplesArePerPhaseSkewsAndPausedDifferences() {
        let (phases, _, samples) = Self.run()
        let steady = SkewFigures(samples.member(1, in: [.steady]))
        #expect(steady.samples == phases.count { $0 == .steady })
        #expect(abs(steady.p95Ms - Self.lead * 1000) < 1e-6)
        #expect(SkewFigures(samples.member(1, in: [.afterSeek])).samples == phases.count { $0 == .afterSeek })
        let paused = SkewFigures(samples.member(1, in: [.paused]))
        #expect(paused.samples == phases.count { $0 == .paused } && paused.maxMs == 0)
        #expect(samples.member(0, in: PartySkewPhases.Kind.allCases).isEmpty)  // the host is the reference
    }

    @Test func membersOutOfStepOrMissingAreLeftOut() {
        var classifier = SkewPhaseClassifier(members: 2)
        let playing = { (t: Double) in Reading(position: t, instant: t, paused: false) }
        let paused = Reading(position: 0, instant: 0, paused: true)
        #expect(classifier.roundSampled([playing(0), paused], at: 0) == .mixed)
        #expect(classifier.roundSampled([playing(0.1), nil], at: 0.1) == .transition)
        #expect(classifier.roundSampled([playing(0.2), playing(0.2)], at: 0.2) == .transition)  // the guest resumed
    }

    @Test func onlyJumpsBeyondTheToleranceAreSeeks() {
        let before = Reading(position: 10, instant: 100, paused: false)
        #expect(SkewPhaseClassifier.change(from: before, to: Reading(position: 10.3, instant: 100.1, paused: false)) == nil)
        #expect(SkewPhaseClassifier.change(from: before, to: Reading(position: 10.4, instant: 100.1, paused: false)) == .seek)
        #expect(SkewPhaseClassifier.change(from: before, to: Reading(position: 10, instant: 100.1, paused: true)) == .pause)
    }

    @Test func summaryLineHasEachPhase() throws {
        let none = SkewFigures([])
        let line = JSONLineWriter.line(PartyBenchPhaseSummary(
            overall: PartyBenchSummary(samples: 2, skewP50Ms: 1, skewP95Ms: 2, skewP99Ms: 2, skewMaxMs: 2, ipcHalfRTTp50Ms: 0.05),
            steady: SkewFigures([0.001, -0.002]), afterResume: none, afterSeek: SkewFigures([0.003]),
            paused: SkewFigures([0, 0]), hostPauses: 1, hostResumes: 2, hostSeeks: 3))
        let object = try #require(JSONValue.parse(line))
        #expect(object["skewP95Ms"] == 2 && object["ipcHalfRTTp50Ms"] == 0.05)  // the overall figures stay
        #expect(object["steadySamples"] == 2 && object["steadySkewP95Ms"] == 2 && object["steadySkewP50Ms"] == 1)
        #expect(object["resumeSamples"] == 0 && object["resumeSkewP95Ms"] == .null)
        #expect(object["seekSkewMaxMs"] == 3)
        #expect(object["pausedSamples"] == 2 && object["pausedMaxDiffMs"] == 0)
        #expect(object["pauses"] == 1 && object["resumes"] == 2 && object["seeks"] == 3)
    }
}

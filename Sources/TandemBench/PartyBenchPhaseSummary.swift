import TandemApp
/// The one line `tandem bench party --json` prints: the overall figures of ``PartyBenchSummary``
/// (all playing samples) and the same per phase — `steady…` (steady play), `resume…` (the settle
/// window after each resume), `seek…` (after each seek) — with `pausedMaxDiffMs`, the largest
/// |position difference| while all were paused, and the host's `pauses`, `resumes` and `seeks`.
/// A figure without samples is `null`.
package struct PartyBenchPhaseSummary: Encodable, Sendable, Equatable {
    package init(overall: PartyBenchSummary, steady: SkewFigures, afterResume: SkewFigures, afterSeek: SkewFigures, paused: SkewFigures, hostPauses: Int, hostResumes: Int, hostSeeks: Int) {
        self.overall = overall
        self.steady = steady
        self.afterResume = afterResume
        self.afterSeek = afterSeek
        self.paused = paused
        self.hostPauses = hostPauses
        self.hostResumes = hostResumes
        self.hostSeeks = hostSeeks
    }

    package var overall: PartyBenchSummary
    package var steady: SkewFigures
    package var afterResume: SkewFigures
    package var afterSeek: SkewFigures
    package var paused: SkewFigures
    package var hostPauses: Int
    package var hostResumes: Int
    package var hostSeeks: Int

    package func encode(to encoder: any Encoder) throws {
        try overall.encode(to: encoder)
        var c = encoder.container(keyedBy: EventField.self)
        for (prefix, figures) in [("steady", steady), ("resume", afterResume), ("seek", afterSeek)] {
            try c.encode(figures.samples, forKey: EventField(stringValue: prefix + "Samples"))
            try c.encode(number: figures.p50Ms, forKey: EventField(stringValue: prefix + "SkewP50Ms"))
            try c.encode(number: figures.p95Ms, forKey: EventField(stringValue: prefix + "SkewP95Ms"))
            try c.encode(number: figures.p99Ms, forKey: EventField(stringValue: prefix + "SkewP99Ms"))
            try c.encode(number: figures.maxMs, forKey: EventField(stringValue: prefix + "SkewMaxMs"))
        }
        try c.encode(paused.samples, forKey: "pausedSamples")
        try c.encode(number: paused.maxMs, forKey: "pausedMaxDiffMs")
        try c.encode(hostPauses, forKey: "pauses")
        try c.encode(hostResumes, forKey: "resumes")
        try c.encode(hostSeeks, forKey: "seeks")
    }
}

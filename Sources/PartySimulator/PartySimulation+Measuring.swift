import DequeModule
import Foundation
import PlayerCore
import MediaTime
import PartyKit

/// What a simulation measures: each member's skew against the party's reference timeline, sampled
/// on true time, and the report made of it.
extension PartySimulation {
    /// The reference: the epoch in force at true time t (a later epoch takes over at its instant).
    func reference(at t: Double) -> Double? {
        guard let current = references.last(where: { $0.partyTime <= t }) else { return nil }
        return current.position(at: t)
    }

    /// Around a jump (seek, item change) positions are discontinuous: a member a millisecond early
    /// already shows the new position. There the command spread is the measure, not the skew.
    static let jumpExclusion = 0.05
    /// Clock exchanges a member has had before its command instants count as "settled" ones.
    static let settleTime = 5.0

    func sample(at t: Double) {
        guard let expected = reference(at: t) else { return }
        if references.contains(where: { $0.jump && $0.epoch > 1 && abs($0.partyTime - t) < Self.jumpExclusion }) { return }
        for (i, m) in members.enumerated() where m.core.isSynced {
            let local = m.clock.local(t)
            let clock = m.player.clock
            // Held on a seek's picture until its instant: nothing plays, there is no skew to speak of.
            if !clock.isPaused, clock.anchorHost > local { continue }
            let skew = clock.position(at: local) - expected
            m.skews.append(skew)
            samples.append(SkewSample(time: t, member: i, skew: skew, correction: m.correction))
        }
    }

    func report() -> SimulationReport {
        var all: [Double] = []
        let perMember = members.map { m -> SimulationReport.Member in
            let sorted = m.skews.map { abs($0) * 1000 }.sorted()
            all += sorted
            return .init(name: m.name, samples: sorted.count,
                         skewP50Ms: Percentile.nearestRank(sorted, 0.5), skewP95Ms: Percentile.nearestRank(sorted, 0.95),
                         skewP99Ms: Percentile.nearestRank(sorted, 0.99), skewMaxMs: sorted.last ?? .nan,
                         maxRateCorrection: m.maxCorrection, seeks: m.seeks)
        }
        all.sort()
        // Spread between members at each sampling instant.
        var byTime: [Double: [Double]] = [:]
        for s in samples { byTime[s.time, default: []].append(s.skew) }
        let spreads = byTime.values.filter { $0.count > 1 }.map { (($0.max() ?? 0) - ($0.min() ?? 0)) * 1000 }.sorted()
        // Convergence of the mid-way joiner: from its start until |skew| stays below 10 ms.
        let joiner = joinerIndex
        let joinerSamples = samples.filter { $0.member == joiner }
        var convergence = Double.nan
        if let joinedAt = members[joiner].joinedAt, let last = joinerSamples.last {
            let lastBad = joinerSamples.last { abs($0.skew) >= 0.01 }
            let settled = lastBad.flatMap { bad in joinerSamples.first { $0.time > bad.time } } ?? joinerSamples.first ?? last
            convergence = settled.time - joinedAt
        }
        // Command spread: the same epoch applied by every member, in true time.
        let epochs = Set(members.flatMap { $0.applied.keys })
        var commandSpread = 0.0, settledSpread = 0.0
        for e in epochs {
            let instants = members.compactMap { $0.applied[e] }
            guard instants.count >= 2 else { continue }
            commandSpread = max(commandSpread, ((instants.max() ?? 0) - (instants.min() ?? 0)) * 1000)
            // Members that had measured their clock for a while by then.
            let settled = members.compactMap { m in
                m.applied[e].flatMap { at in (m.joinedAt.map { at - $0 >= Self.settleTime } ?? false) ? at : nil }
            }
            if settled.count >= 2 { settledSpread = max(settledSpread, ((settled.max() ?? 0) - (settled.min() ?? 0)) * 1000) }
        }
        return SimulationReport(members: perMember, skewP50Ms: Percentile.nearestRank(all, 0.5),
                                skewP99Ms: Percentile.nearestRank(all, 0.99), skewMaxMs: all.last ?? .nan,
                                spreadP99Ms: Percentile.nearestRank(spreads, 0.99), convergenceSeconds: convergence,
                                commandSpreadMs: commandSpread, settledCommandSpreadMs: settledSpread, maxRateCorrection: members.map(\.maxCorrection).max() ?? 0,
                                commands: references.count)
    }
}

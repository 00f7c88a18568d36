import PartyServer
import Prometheus
import Synchronization

/// The party server's metrics, in Prometheus' text format at the admin port's `/metrics`.
///
/// Gauges are set from the server's own counts when scraped; counters and histograms are fed as
/// things happen. Skew and round trip are what members report in their statuses (the server cannot
/// see a member's picture), so they are the members' view, as `/who` shows it.
public final class ServerMetrics: PartyServerObserver, Sendable {
    public let registry = PrometheusCollectorRegistry()

    let parties: Gauge
    let members: Gauge
    let draining: Gauge
    let messagesIn: Counter
    let messagesOut: Counter
    let relayedBytes: Counter
    /// The relay's own count at the last refresh: the counter grows by the difference.
    private let relayedSoFar = Mutex<Int64>(0)
    let skew: ValueHistogram
    let roundTrip: ValueHistogram

    /// |skew| buckets (ms): Tandem's members sit under 1–2 ms; Syncplay's class is ~100 ms.
    static let skewBucketsMs: [Double] = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100, 250, 1000]
    /// Round-trip buckets (ms): loopback to intercontinental.
    static let roundTripBucketsMs: [Double] = [1, 5, 10, 25, 50, 100, 200, 400, 800, 1600]

    public init() {
        func name(_ metric: String, _ unit: String?, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "tandem", metricName: metric, unitName: unit ?? "", helpText: help)  // "": no unit suffix
        }
        parties = registry.makeGauge(descriptor: name("parties", nil, "Parties on this server"))
        members = registry.makeGauge(descriptor: name("members", nil, "Connected party members"))
        draining = registry.makeGauge(descriptor: name("draining", nil, "1 while the server drains for a restart"))
        messagesIn = registry.makeCounter(descriptor: name("messages_received", "total", "Party messages received"))
        messagesOut = registry.makeCounter(descriptor: name("messages_sent", "total", "Party messages sent"))
        relayedBytes = registry.makeCounter(descriptor: name("media_relayed_bytes", "total", "Media bytes hosts sent through the relay"))
        skew = registry.makeValueHistogram(descriptor: name("member_skew", "ms", "|skew| members report against the party timeline (ms)"),
                                           buckets: Self.skewBucketsMs)
        roundTrip = registry.makeValueHistogram(descriptor: name("member_rtt", "ms", "Clock-sync round trip members report (ms)"),
                                                buckets: Self.roundTripBucketsMs)
    }

    /// The server's counts now.
    public func set(parties: Int, members: Int, draining: Bool) {
        self.parties.set(to: Double(parties))
        self.members.set(to: Double(members))
        self.draining.set(to: draining ? 1 : 0)
    }

    public func messageReceived() { messagesIn.increment() }
    /// Many at once (the time pings answered on the event loops, counted at each tick): one update.
    public func messagesReceived(_ count: Int) { messagesIn.increment(by: Double(count)) }
    public func messagesSent(_ count: Int) { messagesOut.increment(by: Double(count)) }
    /// The relay's count of bytes hosts have sent through it since start.
    public func relayed(totalBytes: Int64) {
        let delta = relayedSoFar.withLock { last in defer { last = max(last, totalBytes) }; return totalBytes - last }
        if delta > 0 { relayedBytes.increment(by: Double(delta)) }
    }

    /// A member's status: its own skew and round trip, when it reports them.
    public func memberReported(skewMs: Double?, rttMs: Double?) {
        if let skewMs, skewMs.isFinite { skew.record(abs(skewMs)) }
        if let rttMs, rttMs.isFinite, rttMs >= 0 { roundTrip.record(rttMs) }
    }

    /// The text exposition format.
    public func exposition() -> [UInt8] { registry.emitToBuffer() }
}

/// The order a serving command tells its addresses in, from a ``PortMapper``'s reports: each
/// report's line; the internet address whenever there is a new one (first mapped, or mapped again
/// elsewhere); the LAN address once, right after the first attempt settles (after the internet
/// address when there is one) or is reported as slow.
public enum LinkAnnouncer {
    /// Follows `reports` to their end.
    /// - Parameters:
    ///   - advice: what to do when guests on the internet cannot reach this machine (in the lines).
    ///   - say: a report's line.
    ///   - internet: the address guests on the internet dial, when there is a new one.
    ///   - lan: the LAN address's turn (once).
    public static func follow(_ reports: AsyncStream<PortMappingReport>, advice: String, say: @Sendable (String) -> Void,
                              internet: @Sendable (PortMappingGrant) -> Void, lan: @Sendable () -> Void) async {
        var lanShown = false
        var shown: PortMappingGrant?
        for await report in reports {
            say(report.line(advice: advice))
            if let grant = report.internetAddress, !(shown.map { grant.sameLink(as: $0) } ?? false) {
                internet(grant)
                shown = grant
            }
            if !lanShown, report.showsLANLink {
                lan()
                lanShown = true
            }
        }
        // Stopped before the first attempt settled: the LAN address still gets its line.
        if !lanShown { lan() }
    }
}

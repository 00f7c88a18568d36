import Foundation
import PartyKit
import Testing
import TestSupport

/// A browser guest who opens a party's link on another node of the cluster: the node answers with a
/// redirect, as it does a native member, and the page goes on to the party's node with the same key.
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available && WebDriver.unavailable() == nil,
                                                "\(TestDatabase.skipReason) \(WebDriver.unavailable()?.description ?? "")"))
struct ClusterBrowserRedirectTests {
    @Test func thePageFollowsTheRedirectToThePartysNode() async throws {
        let url = try #require(TestDatabase.environment["TANDEM_TEST_POSTGRES"])
        let b = try ClusterServeCommandTests.Serve(["--cluster", url, "--node-id", TestDatabase.unique("web-b")])
        defer { b.stop() }
        let portB = try await Self.port(b)
        _ = try await b.line(startingWith: "cluster node ")
        let a = try ClusterServeCommandTests.Serve(["--cluster", url, "--node-id", TestDatabase.unique("web-a")])
        defer { a.stop() }
        let portA = try await Self.port(a)
        _ = try await a.line(startingWith: "cluster node ")

        let party = TestDatabase.unique("web")
        let link = PartyLink(host: "127.0.0.1", port: portA, party: party, key: ClusterServeTests.key, insecure: true)
        let host = TestMembers.member(link, name: "Hana", create: try TestMembers.config())
        let hostRun = Task { await host.run() }
        defer { hostRun.cancel() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }

        // The browser link names node b, which does not hold the party.
        var onB = link
        onB.port = portB
        let browser = try await WebDriver.start()
        do {
            try await browser.navigate(to: onB.browserLink)
            try await browser.sendKeys("Wendy", to: try await browser.element(css: "#name"))
            try await browser.click(try await browser.element(css: "#join-button"))
            // Redirected: a new page on a's origin, the same key, the name filled in; one click joins there.
            try await waitUntil("the page is on node a", within: .seconds(30), every: .milliseconds(100)) {
                ((try? await browser.currentURL) ?? "").hasPrefix("http://127.0.0.1:\(portA)/p/\(party)#key=")
            }
            try await browser.wait(until: "return document.querySelector('#name').value == 'Wendy'", within: .seconds(10))
            try await browser.click(try await browser.element(css: "#join-button"))
            try await browser.wait(until: "const s = window.tandem.state(); return s.phase == 'seated' && s.participants.includes('Hana')",
                                   within: .seconds(30))
        } catch {
            print("browser logs:", (try? await browser.browserLogs()) ?? [])
            await browser.quit()
            throw error
        }
        await browser.quit()
        await host.leave()
        await host.shutDown()
    }

    static func port(_ serve: ClusterServeCommandTests.Serve) async throws -> Int {
        let line = try await serve.line(startingWith: "listening on ")
        return try #require(Int(line.split(separator: ":").last ?? ""))
    }
}

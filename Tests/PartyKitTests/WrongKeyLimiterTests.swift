import Testing
@testable import PartyKit

@Suite struct WrongKeyLimiterTests {
    let policy = WrongKeyLimiter.Policy(limit: 3, window: 60, maxTrackedAddresses: 4)

    @Test func refusesAfterTheLimitUntilTheOldestMissIsAWindowOld() {
        var limiter = WrongKeyLimiter(policy: policy)
        for t in [0.0, 10, 20] {
            #expect(limiter.check("a", now: t) == .allowed)
            limiter.recordMiss("a", now: t)
        }
        #expect(limiter.check("a", now: 20) == .refused(retryAfter: 40))
        #expect(limiter.check("a", now: 59.5) == .refused(retryAfter: 1))
        // Another address is not affected.
        #expect(limiter.check("b", now: 20) == .allowed)
        // The miss at 0 has left the window: one more try, and the next miss refuses until 10 leaves it.
        #expect(limiter.check("a", now: 60) == .allowed)
        limiter.recordMiss("a", now: 60)
        #expect(limiter.check("a", now: 60) == .refused(retryAfter: 10))
        #expect(limiter.check("a", now: 70) == .allowed)
    }

    @Test func misunderstandingsBelowTheLimitNeverRefuse() {
        var limiter = WrongKeyLimiter(policy: policy)
        // Two misses a minute, forever: never refused.
        for minute in 0..<100 {
            let t = Double(minute) * 60
            limiter.recordMiss("a", now: t)
            limiter.recordMiss("a", now: t + 1)
            #expect(limiter.check("a", now: t + 2) == .allowed)
        }
    }

    @Test func tracksAtMostTheCapOfAddressesForgettingTheLongestTrackedFirst() {
        var limiter = WrongKeyLimiter(policy: policy)
        for (i, source) in ["a", "b", "c", "d"].enumerated() { limiter.recordMiss(source, now: Double(i)) }
        #expect(limiter.trackedCount == 4)
        for _ in 0..<2 { limiter.recordMiss("a", now: 4) }
        #expect(limiter.check("a", now: 4) == .refused(retryAfter: 56))
        // A fifth address: the one tracked longest ("a") is forgotten.
        limiter.recordMiss("e", now: 5)
        #expect(limiter.trackedCount == 4)
        #expect(limiter.check("a", now: 5) == .allowed)
        for _ in 0..<2 { limiter.recordMiss("b", now: 6) }
        #expect(limiter.check("b", now: 6) == .refused(retryAfter: 55))
        limiter.recordMiss("f", now: 7)
        #expect(limiter.trackedCount == 4)
        #expect(limiter.check("b", now: 7) == .allowed)
    }

    @Test func guessersFromManyAddressesStayWithinTheCap() {
        var limiter = WrongKeyLimiter(policy: .standard)
        for i in 0..<20_000 { limiter.recordMiss("10.0.\(i / 256).\(i % 256)", now: Double(i) / 1000) }
        #expect(limiter.trackedCount <= WrongKeyLimiter.Policy.standard.maxTrackedAddresses)
    }

    @Test func theRefusalSaysWhyAndWhen() {
        #expect(WrongKeyLimiter.refusal(retryAfter: 42) == "too many wrong keys from this address; try again in 42 s")
    }

    @Test(arguments: [
        ("192.0.2.7:51234", "192.0.2.7"), ("[::1]:8080", "[::1]"), ("[2001:db8::1]:1", "[2001:db8:0:0::]/64"),
        ("unknown peer", "unknown peer"), ("/tmp/sock", "/tmp/sock"), ("::1", "::1"),
        ("[::ffff:192.0.2.7]:443", "192.0.2.7"),
    ])
    func countsPerAddressNotPerConnection(peer: String, source: String) {
        #expect(WrongKeyLimiter.source(ofPeer: peer) == source)
    }
}

/// One IPv6 subscriber (a /64) is one source: walking through its addresses buys no new tries.
@Test func anIPv6SubnetIsOneSource() {
    let a = WrongKeyLimiter.source(ofPeer: "[2001:db8:aa:bb:1:2:3:4]:5000")
    let b = WrongKeyLimiter.source(ofPeer: "[2001:db8:aa:bb:ffff:ffff:ffff:ffff]:6000")
    let other = WrongKeyLimiter.source(ofPeer: "[2001:db8:aa:bc::1]:5000")
    #expect(a == b && a == "[2001:db8:aa:bb::]/64")
    #expect(a != other)
    #expect(WrongKeyLimiter.source(ofAddress: "2001:db8:aa:bb::9") == a, "the media endpoint's bare address counts the same")
    var limiter = WrongKeyLimiter()
    for i in 0..<WrongKeyLimiter.Policy.standard.limit {
        limiter.recordMiss(WrongKeyLimiter.source(ofPeer: "[2001:db8:aa:bb::\(i + 1)]:1"), now: 0)
    }
    #expect(limiter.check(WrongKeyLimiter.source(ofPeer: "[2001:db8:aa:bb::ffff]:1"), now: 1) != .allowed)
}

@Suite struct ConstantTimeTests {
    @Test(arguments: [("", ""), ("abc", "abc"), ("k3y-ünï", "k3y-ünï")])
    func equalStringsAreEqual(a: String, b: String) { #expect(ConstantTime.equals(a, b)) }

    @Test(arguments: [("", "a"), ("abc", "abd"), ("abc", "abcd"), ("abcd", "abc"), ("xbc", "abc"), ("é", "e\u{301}")])
    func differentBytesAreDifferent(a: String, b: String) { #expect(!ConstantTime.equals(a, b)) }

    @Test func aMediaTokenMatchesOnlyAsABearerOfExactlyItsBytes() {
        let token = MediaToken.derive(key: "k", party: "p")
        #expect(MediaToken.matches(authorization: "Bearer \(token)", token: token))
        #expect(!MediaToken.matches(authorization: "Bearer \(token.dropLast())", token: token))
        #expect(!MediaToken.matches(authorization: "Bearer \(token)0", token: token))
        #expect(!MediaToken.matches(authorization: token, token: token))
        #expect(!MediaToken.matches(authorization: nil, token: token))
    }
}

@Suite struct WrongKeyLimitInTheServerTests {
    /// A server core with a limit of 3 wrong keys a minute; connections from `source`.
    func harness() -> (ServerHarness, WrongKeyLimiter.Policy) {
        let policy = WrongKeyLimiter.Policy(limit: 3, window: 60, maxTrackedAddresses: 16)
        let h = ServerHarness()
        h.core = PartyServerCore(wrongKeyPolicy: policy)
        return (h, policy)
    }

    @Test func anAddressWithTooManyWrongKeysIsRefusedEvenWithTheRightOne() {
        let (h, _) = harness()
        _ = h.core.connected(1, source: "198.51.100.1", now: 0)
        _ = h.core.received(1, text: PartyProtocol.encode(h.hello(name: "Alice", create: PartyConfig(items: ["m"]))), now: 0)
        for i in 0..<3 {
            let id = 10 + i
            _ = h.core.connected(id, source: "203.0.113.9", now: 1)
            let out = h.core.received(id, text: PartyProtocol.encode(h.hello(name: "Eve", key: "guess\(i)")), now: 1)
            #expect(out.errors(to: id).map(\.message) == ["wrong key for party \"\(h.party)\""])
        }
        _ = h.core.connected(20, source: "203.0.113.9", now: 2)
        let out = h.core.received(20, text: PartyProtocol.encode(h.hello(name: "Eve")), now: 2)
        #expect(out.errors(to: 20).map(\.code) == [.wrongKey])
        #expect(out.errors(to: 20).map(\.message) == ["too many wrong keys from this address; try again in 59 s"])
        #expect(out.closed == [20])
        #expect(out.logs.contains { $0.contains("203.0.113.9") && $0.contains("too many wrong keys") })
        #expect(!out.logs.joined().contains(h.key))
        #expect(h.core.participants(of: h.party).count == 1)
        // Another address joins with the right key meanwhile; the limited one may try again later.
        _ = h.core.connected(21, source: "198.51.100.2", now: 2)
        #expect(h.core.received(21, text: PartyProtocol.encode(h.hello(name: "Bob")), now: 2).welcome(to: 21) != nil)
        _ = h.core.connected(22, source: "203.0.113.9", now: 61)
        #expect(h.core.received(22, text: PartyProtocol.encode(h.hello(name: "Eve")), now: 61).welcome(to: 22) != nil)
    }

    @Test func aLimitedAddressCannotCreateAPartyEither() {
        let (h, _) = harness()
        _ = h.core.connected(1, source: "198.51.100.1", now: 0)
        _ = h.core.received(1, text: PartyProtocol.encode(h.hello(name: "Alice", create: PartyConfig(items: ["m"]))), now: 0)
        for i in 0..<3 {
            _ = h.core.connected(10 + i, source: "203.0.113.9", now: 1)
            _ = h.core.received(10 + i, text: PartyProtocol.encode(h.hello(name: "Eve", key: "g\(i)")), now: 1)
        }
        _ = h.core.connected(20, source: "203.0.113.9", now: 2)
        let out = h.core.received(20, text: PartyProtocol.encode(h.hello(name: "Eve", create: PartyConfig(items: ["m"]), party: "other")), now: 2)
        #expect(out.errors(to: 20).map(\.code) == [.wrongKey])
        #expect(h.core.partyCount == 1)
    }

    @Test func wrongKeyLogLinesNeverCarryAKey() {
        let (h, _) = harness()
        _ = h.core.connected(1, source: "198.51.100.1", now: 0)
        _ = h.core.received(1, text: PartyProtocol.encode(h.hello(name: "Alice", create: PartyConfig(items: ["m"]))), now: 0)
        _ = h.core.connected(2, source: "203.0.113.9", now: 1)
        let out = h.core.received(2, text: PartyProtocol.encode(h.hello(name: "Eve", key: "my-guess-1234")), now: 1)
        let everything = out.logs + out.errors(to: 2).map(\.message) + out.compactMap { if case .close(_, let r) = $0 { r } else { nil } }
        #expect(!everything.isEmpty)
        for line in everything {
            #expect(!line.contains("my-guess-1234") && !line.contains(h.key))
        }
    }
}

@Suite struct LinkErrorTests {
    @Test func anInvalidLinksErrorNamesTheLinkWithoutItsKey() {
        let error = PartyLink.ParseError.invalid("tandem://host/party/p?key=s3cret-Value&x=1", "no port")
        #expect(error.description == "invalid party link \"tandem://host/party/p?key=…&x=1\": no port")
        do {
            _ = try PartyLink(parsing: "tandem://example.org/party/p?key=s3cret-Value")
            Issue.record("a link without a port parsed")
        } catch {
            #expect(!error.description.contains("s3cret-Value"))
            #expect(error.description.contains("no port"))
        }
    }
}

import Testing
import PartyKit

/// The member's connection (``MemberConnection``) driven event by event: joining, redirects and their
/// loop limit, reconnects with back-off (growth, cap, the next live node), giving up, leaving, and
/// events that come out of order.
@Suite struct MemberConnectionTests {
    typealias Connection = MemberConnection<NodeAddress>
    typealias Leg = Connection.Leg
    typealias Outage = Connection.Outage

    static let a = NodeAddress(host: "a.example", port: 7443)
    static let b = NodeAddress(host: "b.example", port: 7444, fingerprint: String(repeating: "B", count: 43))
    static let c = NodeAddress(host: "c.example", port: 7445)

    /// Dialled, greeted and welcomed by `a` (listing `nodes`).
    private func seated(nodes: [NodeAddress]? = nil) -> Connection {
        var connection = Connection(target: Self.a)
        _ = connection.handle(.start)
        _ = connection.handle(.dialled)
        _ = connection.handle(.welcomed(nodes: nodes))
        return connection
    }

    /// Seated at `a`, then its connection lost at `at` and the wait over: dialling `a` again.
    private func redialling(at: Double, nodes: [NodeAddress]? = nil) -> Connection {
        var connection = seated(nodes: nodes)
        _ = connection.handle(.closed(reason: nil, at: at))
        _ = connection.handle(.backoffElapsed)
        return connection
    }

    // MARK: Joining

    @Test func theNormalPathDialsGreetsSeatsAndLeaves() {
        var connection = Connection(target: Self.a)
        #expect(connection.state == .idle(Self.a))
        #expect(connection.handle(.start) == [.dial(Self.a)])
        #expect(connection.state == .dialling(Leg(target: Self.a, standing: .newcomer)))
        #expect(connection.handle(.dialled) == [.sayHello])
        #expect(connection.state == .greeting(Leg(target: Self.a, standing: .newcomer)))
        #expect(connection.handle(.heard).isEmpty)
        #expect(connection.handle(.welcomed(nodes: nil)) == [.seated(Self.a)])
        #expect(connection.state == .seated(Self.a))
        #expect(connection.nodes.isEmpty && connection.outcome == nil)
        // Connected: bye, then over; its close changes nothing.
        #expect(connection.handle(.leaveRequested) == [.sayBye, .finish(.left)])
        #expect(connection.state == .over(.left))
        #expect(connection.handle(.closed(reason: "left", at: 5)).isEmpty)
        #expect(connection.outcome == .left)
    }

    @Test func aNewcomerThatCannotGetInGivesUpAtOnceNamingTheServer() {
        var refusedDial = Connection(target: Self.a)
        _ = refusedDial.handle(.start)
        #expect(refusedDial.handle(.connectionFailed("connection refused", at: 1))
                == [.finish(.failed("cannot join a.example:7443: connection refused"))])
        #expect(refusedDial.outcome == .failed("cannot join a.example:7443: connection refused"))

        var closedOn = Connection(target: Self.a)
        _ = closedOn.handle(.start)
        _ = closedOn.handle(.dialled)
        #expect(closedOn.handle(.closed(reason: "too many members", at: 1))
                == [.finish(.failed("the server closed the connection: too many members"))])
        var closedSilently = Connection(target: Self.a)
        _ = closedSilently.handle(.start)
        _ = closedSilently.handle(.dialled)
        #expect(closedSilently.handle(.closed(reason: nil, at: 1)) == [.finish(.failed("the server closed the connection"))])
    }

    @Test func theServerEndingOrRefusingIsFinalAndTheFirstOutcomeStands() {
        var ended = seated()
        #expect(ended.handle(.partyEnded("the host ended the party")) == [.finish(.ended("the host ended the party"))])
        #expect(ended.handle(.refused("late")).isEmpty)
        #expect(ended.handle(.leaveRequested).isEmpty)
        #expect(ended.handle(.closed(reason: "ended", at: 3)).isEmpty)
        #expect(ended.outcome == .ended("the host ended the party"))

        var refused = Connection(target: Self.a)
        _ = refused.handle(.start)
        _ = refused.handle(.dialled)
        #expect(refused.handle(.refused("wrong key")) == [.finish(.failed("wrong key"))])
        #expect(refused.handle(.partyEnded("wrong key")).isEmpty)
        #expect(refused.outcome == .failed("wrong key"))
    }

    // MARK: Redirects

    @Test func aRedirectClosesThenDialsTheNodeNamedWithTheSameHello() {
        var connection = Connection(target: Self.a)
        _ = connection.handle(.start)
        _ = connection.handle(.dialled)
        #expect(connection.handle(.redirected(to: Self.b)) == [.close(reason: "redirected to \(Self.b)")])
        #expect(connection.state == .redirected(Leg(target: Self.a, standing: .newcomer), to: Self.b))
        // Nothing is dialled until the old connection has closed.
        #expect(connection.handle(.closed(reason: "redirected", at: 1)) == [.report(.redirected(to: Self.b)), .dial(Self.b)])
        #expect(connection.state == .dialling(Leg(target: Self.b, hops: 1, standing: .newcomer)))
        // Still a newcomer: its first hello, and a failure there is final, naming the new node.
        #expect(connection.handle(.dialled) == [.sayHello])
        #expect(connection.handle(.welcomed(nodes: [Self.a, Self.b])) == [.seated(Self.b)])
        #expect(connection.nodes == [Self.a, Self.b])
        // Seated, then moved (a takeover): back with its seat, the hops counted afresh.
        #expect(connection.handle(.redirected(to: Self.c)) == [.close(reason: "redirected to \(Self.c)")])
        #expect(connection.handle(.closed(reason: nil, at: 2)) == [.report(.redirected(to: Self.c)), .dial(Self.c)])
        #expect(connection.state == .dialling(Leg(target: Self.c, hops: 1, standing: .returning(nil))))
        #expect(connection.handle(.dialled) == [.sayHelloAgain])
    }

    @Test func aNewcomerRedirectedToANodeItCannotReachGivesUpNamingThatNode() {
        var connection = Connection(target: Self.a)
        _ = connection.handle(.start)
        _ = connection.handle(.dialled)
        _ = connection.handle(.redirected(to: Self.b))
        _ = connection.handle(.closed(reason: nil, at: 1))
        #expect(connection.handle(.connectionFailed("timed out", at: 2)) == [.finish(.failed("cannot join b.example:7444: timed out"))])
    }

    @Test func moreThanFourRedirectsInARowIsALoopAndGivesUp() {
        #expect(Connection.maxRedirects == 4)
        var connection = Connection(target: Self.a)
        _ = connection.handle(.start)
        let ring = [Self.b, Self.c, Self.a, Self.b]
        for (hop, node) in ring.enumerated() {
            #expect(connection.handle(.dialled) == [.sayHello])
            _ = connection.handle(.redirected(to: node))
            #expect(connection.handle(.closed(reason: nil, at: Double(hop))) == [.report(.redirected(to: node)), .dial(node)])
            #expect(connection.state == .dialling(Leg(target: node, hops: hop + 1, standing: .newcomer)))
        }
        _ = connection.handle(.dialled)
        _ = connection.handle(.redirected(to: Self.c))
        let loop = "redirected 5 times in a row without joining (last to \(Self.c)): the cluster's nodes disagree on who serves the party"
        #expect(connection.handle(.closed(reason: nil, at: 9)) == [.finish(.failed(loop))])
        #expect(connection.outcome == .failed(loop))
    }

    @Test func aWelcomeOrAFailedDialEndsARunOfRedirects() {
        // Four redirects, a welcome, four more: never five in a row.
        var welcomed = Connection(target: Self.a)
        _ = welcomed.handle(.start)
        _ = welcomed.handle(.dialled)
        for round in 0..<2 {
            for hop in 1...4 {
                let node = hop % 2 == 1 ? Self.b : Self.c
                _ = welcomed.handle(.redirected(to: node))
                #expect(welcomed.handle(.closed(reason: nil, at: 0)) == [.report(.redirected(to: node)), .dial(node)],
                        "round \(round) hop \(hop)")
                _ = welcomed.handle(.dialled)
            }
            #expect(welcomed.handle(.welcomed(nodes: nil)) == [.seated(Self.c)])
        }
        #expect(welcomed.outcome == nil)

        // A returning member: four redirects, a dial that fails, then back to zero hops.
        var failed = redialling(at: 0)
        for _ in 0..<4 {
            _ = failed.handle(.dialled)
            _ = failed.handle(.redirected(to: Self.b))
            _ = failed.handle(.closed(reason: nil, at: 1))
        }
        guard case .dialling(let leg) = failed.state else { Issue.record("\(failed.state)"); return }
        #expect(leg.hops == 4)
        _ = failed.handle(.connectionFailed("refused", at: 2))
        guard case .backingOff(let after, _) = failed.state else { Issue.record("\(failed.state)"); return }
        #expect(after.hops == 0)
    }

    // MARK: Reconnecting

    @Test func aLostConnectionBacksOffDoublingToTheCapAndRedialsTheSameNode() {
        #expect(Connection.backoffStart == 0.1 && Connection.backoffMax == 5)
        var connection = seated()
        #expect(connection.handle(.closed(reason: nil, at: 10)) == [.report(.connectionLost), .wait(0.2)])
        #expect(connection.state == .backingOff(Leg(target: Self.a, standing: .returning(Outage(failures: 1, since: 10))), delay: 0.2))
        var waits: [Double] = [0.2]
        for t in 11...17 {
            #expect(connection.handle(.backoffElapsed) == [.dial(Self.a)])
            #expect(connection.handle(.dialled) == [.sayHelloAgain])
            let actions = connection.handle(.closed(reason: nil, at: Double(t)))
            #expect(actions.first == .report(.connectionLost))
            guard case .wait(let seconds)? = actions.last else { Issue.record("\(actions)"); return }
            waits.append(seconds)
        }
        #expect(waits == [0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5])
        // The outage started at the first loss; a node that lets the member in and drops it is never given up on.
        #expect(connection.state == .backingOff(Leg(target: Self.a, standing: .returning(Outage(failures: 8, since: 10))), delay: 5))
    }

    @Test func inAClusterTheWaitIsCappedAtASecondAndADeadNodeGivesWayToTheNext() {
        #expect(Connection.clusterBackoffMax == 1)
        var connection = redialling(at: 0, nodes: [Self.a, Self.b, Self.c])
        var dialled: [NodeAddress] = [Self.a]
        var waits: [Double] = []
        for t in 1...6 {
            let actions = connection.handle(.connectionFailed("refused", at: Double(t)))
            guard case .wait(let seconds)? = actions.first, actions.count == 1 else { Issue.record("\(actions)"); return }
            waits.append(seconds)
            guard case .dial(let next)? = connection.handle(.backoffElapsed).first else { Issue.record("no dial"); return }
            dialled.append(next)
        }
        // The first loss was a close (0.2 s), so the dials fail from the second try on.
        #expect(waits == [0.4, 0.8, 1, 1, 1, 1])
        #expect(dialled == [Self.a, Self.b, Self.c, Self.a, Self.b, Self.c, Self.a])
    }

    /// The one-second cap needs another live node to wait for: a list of two has one, a list of the
    /// member's own node alone does not.
    @Test func theClusterCapNeedsAnotherLiveNode() {
        for (nodes, cap) in [([Self.a, Self.b], 1.0), ([Self.a], 5.0)] {
            var connection = seated(nodes: nodes)
            var wait = 0.0
            for t in 0..<8 {
                guard case .wait(let seconds)? = connection.handle(.closed(reason: nil, at: Double(t))).last else {
                    Issue.record("no wait"); return
                }
                wait = seconds
                _ = connection.handle(.backoffElapsed)
                _ = connection.handle(.dialled)
            }
            #expect(wait == cap, "\(nodes)")
        }
    }

    @Test func aLaterNodeListIsWhereTheMemberGoes() {
        var connection = seated(nodes: [Self.a, Self.b])
        _ = connection.handle(.nodesChanged([Self.a, Self.c]))
        #expect(connection.nodes == [Self.a, Self.c])
        _ = connection.handle(.closed(reason: nil, at: 0))
        _ = connection.handle(.backoffElapsed)
        _ = connection.handle(.connectionFailed("refused", at: 1))
        #expect(connection.state.target == Self.c)
        // A welcome that says nothing of nodes keeps what was heard; one that does replaces it.
        _ = connection.handle(.backoffElapsed)
        _ = connection.handle(.dialled)
        _ = connection.handle(.welcomed(nodes: nil))
        #expect(connection.nodes == [Self.a, Self.c])
        _ = connection.handle(.welcomed(nodes: [Self.b]))
        #expect(connection.nodes == [Self.b] && connection.state == .seated(Self.c))
    }

    @Test func aWelcomeStartsTheBackOffAfresh() {
        var connection = redialling(at: 0)
        _ = connection.handle(.connectionFailed("refused", at: 1))  // 2 failures
        _ = connection.handle(.backoffElapsed)
        _ = connection.handle(.dialled)
        #expect(connection.handle(.welcomed(nodes: nil)) == [.seated(Self.a)])
        #expect(connection.handle(.closed(reason: nil, at: 100)) == [.report(.connectionLost), .wait(0.2)])
        #expect(connection.state == .backingOff(Leg(target: Self.a, standing: .returning(Outage(failures: 1, since: 100))), delay: 0.2))
    }

    @Test func hearingTheServerEndsTheOutageEvenWithoutAWelcome() {
        // A node that answers ("still joining its cluster") and closes is there: the wait does not grow.
        var connection = redialling(at: 0)
        _ = connection.handle(.dialled)
        guard case .greeting(let before) = connection.state else { Issue.record("\(connection.state)"); return }
        #expect(before.standing == .returning(Outage(failures: 1, since: 0)))
        #expect(connection.handle(.heard).isEmpty)
        #expect(connection.state == .greeting(Leg(target: Self.a, standing: .returning(nil))))
        #expect(connection.handle(.closed(reason: "still joining", at: 50)) == [.report(.connectionLost), .wait(0.2)])
        #expect(connection.state == .backingOff(Leg(target: Self.a, standing: .returning(Outage(failures: 1, since: 50))), delay: 0.2))
    }

    // MARK: Giving up

    @Test func failedDialsGiveUpOnceTheServerHasBeenAwayAMinute() {
        #expect(Connection.reconnectGiveUp == 60)
        var connection = redialling(at: 100)
        // Dials failing up to 60 s after the loss are retried, each after its wait…
        for t in [101.0, 110, 130, 160] {
            let actions = connection.handle(.connectionFailed("connection refused", at: t))
            guard case .wait? = actions.first else { Issue.record("gave up at \(t): \(actions)"); return }
            #expect(connection.handle(.backoffElapsed) == [.dial(Self.a)])
        }
        // …past it, the member gives up, naming the server and the reason.
        let final = "lost the party server a.example:7443 for good: connection refused"
        #expect(connection.handle(.connectionFailed("connection refused", at: 160.5)) == [.finish(.failed(final))])
        #expect(connection.state == .over(.failed(final)))
        // Nothing brings it back.
        #expect(connection.handle(.backoffElapsed).isEmpty)
        #expect(connection.handle(.start).isEmpty)
        #expect(connection.outcome == .failed(final))
    }

    @Test func theServerHeardFromRestartsTheMinute() {
        var connection = redialling(at: 0)
        _ = connection.handle(.connectionFailed("refused", at: 50))
        _ = connection.handle(.backoffElapsed)
        _ = connection.handle(.dialled)
        _ = connection.handle(.heard)
        _ = connection.handle(.closed(reason: nil, at: 55))
        _ = connection.handle(.backoffElapsed)
        // 61 s after the first loss, 6 s after it was last heard from: retried.
        guard case .wait? = connection.handle(.connectionFailed("refused", at: 61)).first else {
            Issue.record("gave up: \(connection.state)"); return
        }
        _ = connection.handle(.backoffElapsed)
        let final = "lost the party server a.example:7443 for good: refused"
        #expect(connection.handle(.connectionFailed("refused", at: 115.5)) == [.finish(.failed(final))])
    }

    // MARK: Leaving

    @Test func leavingDuringTheBackOffFinishesAtOnceAndNothingLaterRedials() {
        var connection = seated()
        _ = connection.handle(.closed(reason: nil, at: 1))
        // No connection to say bye on: over at once, the wait ended.
        #expect(connection.handle(.leaveRequested) == [.finish(.left)])
        #expect(connection.state == .over(.left))
        #expect(connection.handle(.backoffElapsed).isEmpty)
        #expect(connection.handle(.leaveRequested).isEmpty)
        #expect(connection.outcome == .left)
    }

    @Test func leavingWhileDiallingHangsUpTheConnectionWhenItOpens() {
        var connection = redialling(at: 1)
        #expect(connection.handle(.leaveRequested) == [.finish(.left)])
        #expect(connection.handle(.dialled) == [.close(reason: "left")])
        #expect(connection.state == .over(.left))

        var failing = redialling(at: 1)
        _ = failing.handle(.leaveRequested)
        // A failure after leaving: still left, nothing retried or reported.
        #expect(failing.handle(.connectionFailed("refused", at: 2)).isEmpty)
        #expect(failing.handle(.closed(reason: nil, at: 3)).isEmpty)
        #expect(failing.outcome == .left)

        var early = Connection(target: Self.a)
        #expect(early.handle(.leaveRequested) == [.finish(.left)])
        #expect(early.handle(.start).isEmpty)
        #expect(early.outcome == .left)
    }

    @Test func leavingWhileRedirectedSaysByeAndDialsNothing() {
        var connection = seated()
        _ = connection.handle(.redirected(to: Self.b))
        #expect(connection.handle(.leaveRequested) == [.sayBye, .finish(.left)])
        #expect(connection.handle(.closed(reason: nil, at: 1)).isEmpty)
        #expect(connection.outcome == .left)
    }

    // MARK: Out of order

    @Test func eventsOutOfOrderAreIgnored() {
        // Before the start only the start (or a leave) means anything.
        var idle = Connection(target: Self.a)
        for event: Connection.Event in [.dialled, .connectionFailed("x", at: 0), .heard, .welcomed(nodes: [Self.b]),
                                        .nodesChanged([Self.b]), .redirected(to: Self.b), .closed(reason: nil, at: 0),
                                        .backoffElapsed, .partyEnded("x"), .refused("x")] {
            let actions = idle.handle(event)
            #expect(actions.isEmpty || actions == [.close(reason: "not dialled")], "\(event)")
            #expect(idle.state == .idle(Self.a) && idle.nodes.isEmpty, "\(event)")
        }

        // Backing off there is no connection: a welcome, a redirect, a close or a refusal is stale.
        var waiting = seated()
        _ = waiting.handle(.closed(reason: nil, at: 4))
        let backingOff = waiting.state
        for event: Connection.Event in [.welcomed(nodes: [Self.b, Self.c]), .nodesChanged([Self.b, Self.c]), .heard,
                                        .redirected(to: Self.b), .closed(reason: nil, at: 5), .connectionFailed("x", at: 5),
                                        .partyEnded("x"), .refused("x"), .start] {
            #expect(waiting.handle(event).isEmpty, "\(event)")
            #expect(waiting.state == backingOff && waiting.nodes.isEmpty, "\(event)")
        }
        // A connection it did not ask for is closed, and the wait goes on.
        #expect(waiting.handle(.dialled) == [.close(reason: "not dialled")])
        #expect(waiting.state == backingOff)

        // Seated: no dial or wait is under way.
        var seated = seated()
        for event: Connection.Event in [.backoffElapsed, .connectionFailed("x", at: 1), .start] {
            #expect(seated.handle(event).isEmpty, "\(event)")
            #expect(seated.state == .seated(Self.a), "\(event)")
        }

        // Dialling: nothing is said before the connection opens.
        var dialling = Connection(target: Self.a)
        _ = dialling.handle(.start)
        for event: Connection.Event in [.welcomed(nodes: nil), .redirected(to: Self.b), .closed(reason: nil, at: 1),
                                        .backoffElapsed, .partyEnded("x"), .refused("x")] {
            #expect(dialling.handle(event).isEmpty, "\(event)")
            #expect(dialling.state == .dialling(Leg(target: Self.a, standing: .newcomer)), "\(event)")
        }
    }
}

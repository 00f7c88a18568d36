import Testing
@testable import PartyKit

/// The server's pong text decodes to the same pong as the codec's, for every kind of number.
@Suite struct PongTextTests {
    @Test(arguments: [
        TimePong(id: 1, t0: 0, t1: 0.000001, t2: 1e-7),
        TimePong(id: 987654, t0: 12345.678901234, t1: 3.0e15, t2: -2.5),
        TimePong(id: -3, t0: 1e300, t1: 0.1 + 0.2, t2: 123456789.123456789),
    ])
    func theTextDecodesToThePong(pong: TimePong) throws {
        #expect(try PartyProtocol.decode(pong.wireText) == .timePong(pong))
    }

    @Test func aNonFiniteTimeTakesTheCodecsPath() {
        let pong = TimePong(id: 2, t0: .nan, t1: 1, t2: .infinity)
        #expect(pong.wireText == PartyProtocol.encode(.timePong(pong)))
    }

    /// What a server answers on the event loop is what the core answers a joined member's ping with.
    @Test func aPingIsAnsweredAsTheCoreAnswersIt() throws {
        let ping = TimePing(id: 42, t0: 1234.5678)
        let text = PartyProtocol.encode(.timePing(ping))
        let answer = try #require(TimePong.answer(toPing: text, receivedAt: 2000.25, now: 2000.5))
        #expect(try PartyProtocol.decode(answer) == .timePong(TimePong(id: 42, t0: 1234.5678, t1: 2000.25, t2: 2000.5)))
        // t1 is never after t2.
        let late = try #require(TimePong.answer(toPing: text, receivedAt: 2001, now: 2000.5))
        #expect(try PartyProtocol.decode(late) == .timePong(TimePong(id: 42, t0: 1234.5678, t1: 2000.5, t2: 2000.5)))
    }

    @Test func anythingButACanonicalPingGoesTheUsualWay() {
        for text in [
            PartyProtocol.encode(.status(Status(epoch: 1, state: .ready))),
            #"{"type":"timePing","id":1,"t0":2}"#,  // another key order: the core decides
            #"{"id":"x","t0":2,"type":"timePing"}"#,  // a bad id: the core words the error
            #"{"type":"timePing"}"#,
        ] {
            #expect(TimePong.answer(toPing: text, receivedAt: 1, now: 1) == nil, "\(text)")
        }
    }
}

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
}

import Testing
@testable import PartyKit

/// Pings, pongs and statuses written without Foundation's encoder are the codec's JSON exactly, and what
/// the writer cannot write exactly goes to the codec.
@Suite struct HotMessageEncoderTests {
    static let messages: [PartyMessage] = [
        .timePing(TimePing(id: 1, t0: 0)),
        .timePing(TimePing(id: -7, t0: 1e-7)),
        .timePing(TimePing(id: 8, t0: 1e16)),
        .timePing(TimePing(id: 9, t0: -0.0)),
        .timePing(TimePing(id: 10, t0: 1_700_000_000.5)),
        .timePing(TimePing(id: 987654, t0: 12345.678901234)),
        .timePong(TimePong(id: 1, t0: 0, t1: 0.000001, t2: 1e-7)),
        .timePong(TimePong(id: 987654, t0: 12345.678901234, t1: 3.0e15, t2: -2.5)),
        .timePong(TimePong(id: -3, t0: 1e300, t1: 0.1 + 0.2, t2: 123456789.123456789)),
        .status(Status(epoch: 0, state: .syncing)),
        .status(Status(epoch: 12, state: .ready, skewMs: -0.25, rttMs: 1.5, offsetUncertaintyMs: 0.000125,
                       source: "local copy")),
        .status(Status(epoch: 3, state: .stalled, skewMs: 1e-9, rttMs: 0, source: "streaming", buffering: true)),
        .status(Status(epoch: 4, state: .unavailable, problem: "no such file: Ünïcode ✓ film.mkv")),
    ]

    @Test(arguments: messages) func theTextIsTheCodecs(message: PartyMessage) throws {
        let hot = try #require(HotMessageEncoder.encode(message))
        #expect(hot == PartyProtocol.encodeWithCodec(message))
        #expect(try PartyProtocol.decode(hot) == message)
    }

    /// A status the synthesized encoder writes with `buffering: false` (the initializer only ever sets
    /// true or nil; a decoded one can hold false).
    @Test func anExplicitFalseIsWritten() throws {
        var status = Status(epoch: 1, state: .syncing)
        status.buffering = false
        #expect(HotMessageEncoder.encode(.status(status)) == PartyProtocol.encodeWithCodec(.status(status)))
    }

    @Test(arguments: [
        PartyMessage.timePing(TimePing(id: 1, t0: .nan)),
        .timePong(TimePong(id: 2, t0: .nan, t1: 1, t2: .infinity)),
        .status(Status(epoch: 1, state: .ready, skewMs: .infinity)),
        .status(Status(epoch: 1, state: .unavailable, problem: "a \"quoted\" name")),
        .status(Status(epoch: 1, state: .unavailable, problem: "C:\\films")),
        .status(Status(epoch: 1, state: .unavailable, problem: "/home/me/film.mkv")),
        .status(Status(epoch: 1, state: .unavailable, problem: "line\nbreak")),
        .bye,
    ])
    func whatItCannotWriteExactlyGoesToTheCodec(message: PartyMessage) {
        #expect(HotMessageEncoder.encode(message) == nil)
        #expect(PartyProtocol.encode(message) == PartyProtocol.encodeWithCodec(message))
    }
}

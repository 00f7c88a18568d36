import Foundation
import Testing
@testable import PartyKit

/// The fast path for time pings, statuses and pongs gives exactly what Foundation's decoder gives, and
/// leaves everything it is not sure of to it.
@Suite struct HotMessageDecoderTests {
    /// What Foundation's decoder makes of `text` (nil: an error).
    private func foundation(_ text: String) -> PartyMessage? {
        try? JSONDecoder().decode(Envelope.self, from: Data(text.utf8)).message
    }

    static let hot: [PartyMessage] = [
        .timePing(TimePing(id: 1, t0: 0)),
        .timePing(TimePing(id: 123_456, t0: 8_123.456_789_012_345)),
        .timePing(TimePing(id: -3, t0: -1e-7)),
        .timePong(TimePong(id: 9, t0: 31_536_000.000_001, t1: 5.5, t2: 5.500_012)),
        .status(Status(epoch: 3, state: .ready)),
        .status(Status(epoch: 12, state: .stalled, skewMs: -1.25, rttMs: 0.31, offsetUncertaintyMs: 0.155,
                       source: "local copy", problem: nil, buffering: true)),
        .status(Status(epoch: 1, state: .unavailable, source: "url", problem: "no such file: ünïcödé.mkv")),
        .status(Status(epoch: 0, state: .syncing, skewMs: 1e-9, rttMs: 12)),
    ]

    @Test(arguments: hot)
    func theHotMessagesTakeTheFastPathAndMatchFoundation(_ message: PartyMessage) throws {
        let text = PartyProtocol.encode(message)
        let fast = try #require(HotMessageDecoder.decode(text), "\(text) took the slow path")
        #expect(fast == message)
        #expect(fast == foundation(text))
    }

    @Test(arguments: [
        // Other orders, spaces, unknown fields, explicit nulls: still taken, still equal.
        #"{"type":"timePing","t0":2.5,"id":7}"#,
        " {\n\t\"id\" : 7 , \"t0\" : 25E-1 , \"type\" : \"timePing\" }\r\n",
        #"{"id":7,"t0":2,"type":"timePing","extra":{"a":[1]}}"#,
        #"{"epoch":2,"state":"ready","skewMs":null,"source":null,"buffering":false,"type":"status","future":"x"}"#,
        #"{"epoch":2,"state":"ready","buffering":null,"type":"status"}"#,
        #"{"epoch":-0,"state":"syncing","rttMs":-0.0,"type":"status"}"#,
    ])
    func variantsDecodeAsFoundationDoes(_ text: String) {
        let expected = foundation(text)
        #expect(expected != nil, "a valid message")
        if let fast = HotMessageDecoder.decode(text) { #expect(fast == expected, "\(text)") }
        #expect((try? PartyProtocol.decode(text)) == expected)
    }

    @Test(arguments: [
        // Each is either refused by Foundation's decoder (its error words the problem) or needs it.
        #"{"id":7,"t0":2,"type":"timePing","id":8}"#,         // a duplicate
        #"{"id":7.0,"t0":2,"type":"timePing"}"#,              // an integer written as a fraction
        #"{"id":99999999999999999999,"t0":2,"type":"timePing"}"#,
        #"{"id":7,"t0":1e400,"type":"timePing"}"#,
        #"{"id":7,"t0":1e-400,"type":"timePing"}"#,           // rounds to zero
        #"{"id":7,"t0":"2","type":"timePing"}"#,
        #"{"id":7,"type":"timePing"}"#,
        #"{"id":7,"t0":null,"type":"timePing"}"#,
        #"{"id":7,"t0":02,"type":"timePing"}"#,
        #"{"id":7,"t0":2.,"type":"timePing"}"#,
        #"{"id":7,"t0":2,"type":"time\u0050ing"}"#,           // an escape
        #"{"epoch":1,"state":"dancing","type":"status"}"#,
        #"{"epoch":1,"state":"ready","buffering":1,"type":"status"}"#,
        #"{"epoch":1,"state":"ready","source":5,"type":"status"}"#,
        #"{"epoch":1,"state":"ready","problem":"a\"b","type":"status"}"#,
        #"{"epoch":1,"state":"ready","type":"status"} x"#,
        #"{"epoch":1,"state":"ready","type":"status",}"#,
        #"{"epoch":1 "state":"ready","type":"status"}"#,
        #"{"type":"bye"}"#,
        "[1]", "", "{",
    ])
    func whatItIsNotSureOfIsLeftToFoundation(_ text: String) {
        if let fast = HotMessageDecoder.decode(text) {
            Issue.record("\(text) took the fast path as \(fast)")
        }
        // The protocol's answer is Foundation's, error or message.
        #expect((try? PartyProtocol.decode(text)) == foundation(text))
    }

    /// Random single-byte changes of the hot messages: whatever the fast path takes, Foundation's
    /// decoder reads the same way.
    @Test func mutatedHotMessagesNeverDisagreeWithFoundation() {
        var rng = SplitMix64(seed: 14)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \tnulltruefalsexyz"#.utf8)
        var taken = 0
        for message in Self.hot {
            let original = Array(PartyProtocol.encode(message).utf8)
            for _ in 0..<2000 {
                var bytes = original
                let index = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[index] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: index)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                guard let fast = HotMessageDecoder.decode(text) else { continue }
                taken += 1
                #expect(fast == foundation(text), "\(text)")
            }
        }
        #expect(taken > 100, "the fast path took only \(taken) mutations")
    }
}

import Testing
@testable import SyncplayKit

@Suite struct SyncplayLineFramerTests {
    private func text(_ lines: [[UInt8]]) -> [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

    @Test func splitsOnCRLFAcrossChunks() throws {
        var framer = SyncplayLineFramer(maxLineBytes: 100)
        #expect(try framer.feed(Array("{\"a\":1}\r\n{\"b\"".utf8)).count == 1)
        #expect(framer.pendingBytes == 4)
        #expect(text(try framer.feed(Array(":2}\r".utf8))) == [])
        #expect(text(try framer.feed(Array("\n\r\n\nlast\n".utf8))) == ["{\"b\":2}", "last"])
        #expect(framer.pendingBytes == 0)
    }

    @Test func aLineAtTheLimitPassesOneOverIsRefused() throws {
        var framer = SyncplayLineFramer(maxLineBytes: 8)
        #expect(text(try framer.feed(Array("12345678\r\n".utf8))) == ["12345678"])
        #expect(throws: SyncplayProtocolError.lineTooLong(bytes: 9, limit: 8)) { try framer.feed(Array("123456789\r\n".utf8)) }
    }

    @Test func aLineThatNeverEndsIsRefusedOnceItPassesTheLimit() throws {
        var framer = SyncplayLineFramer(maxLineBytes: 16)
        // Up to the limit plus a possible "\r", the framer waits.
        #expect(try framer.feed(Array(repeating: UInt8(ascii: "x"), count: 17)).isEmpty)
        #expect(throws: SyncplayProtocolError.lineTooLong(bytes: 18, limit: 16)) {
            try framer.feed([UInt8(ascii: "x")])
        }
    }
}

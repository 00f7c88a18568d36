import FuzzDriver
import PartyKit

/// The party message decoder, and a fresh server core's hello handling: any text is a message or
/// a named decode error, a decoded message survives its own encoding, and the core answers any
/// text without trapping.
@main enum FuzzPartyMessage {
    static func main() { FuzzDriver.main(fuzzOneInput) }

    static let hostHello = PartyProtocol.encode(.hello(Hello(
        version: PartyProtocol.version, party: "fuzz", key: "k", name: "host",
        create: PartyConfig(items: [MediaItem(title: "a.mp4", identity: MediaIdentity(duration: 60, streams: ["video"]))]))))
}

/// One input (libFuzzer's entry point; the replaying `main` calls it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: [UInt8](fuzzInput: data, count: count), as: UTF8.self)
    if let message = try? PartyProtocol.decode(text) {
        let again = PartyProtocol.encode(message)
        guard let decoded = try? PartyProtocol.decode(again) else {
            preconditionFailure("\(text.debugDescription) decoded, but its encoding \(again.debugDescription) does not")
        }
        precondition(PartyProtocol.encode(decoded) == again, "encoding is not stable for \(text.debugDescription)")
    }
    // A server with one party: the input as a stranger's first message, then as a member's.
    var core = PartyServerCore()
    _ = core.connected(1, source: "192.0.2.1", now: 0)
    _ = core.received(1, text: FuzzPartyMessage.hostHello, now: 0)
    _ = core.connected(2, source: "192.0.2.2", now: 1)
    _ = core.received(2, text: text, now: 1)
    _ = core.received(1, text: text, now: 2)
    _ = core.tick(now: 30)
    return 0
}

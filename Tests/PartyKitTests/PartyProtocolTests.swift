import Foundation
import Testing
@testable import PartyKit

@Suite struct PartyProtocolTests {
    typealias DecodeError = PartyProtocol.DecodeError

    private func decodeError(_ text: String) -> DecodeError? {
        do {
            _ = try PartyProtocol.decode(text)
            return nil
        } catch {
            return error
        }
    }

    private func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: Round trips

    @Test func everyCaseIsCovered() {
        let covered = Set(Fixtures.everyMessage.map(\.type))
        #expect(covered == Set(allMessageTypes))
    }

    @Test(arguments: Fixtures.everyMessage)
    func encodeDecodeRoundTrip(_ message: PartyMessage) throws {
        let text = PartyProtocol.encode(message)
        let decoded = try PartyProtocol.decode(text)
        #expect(decoded == message)
        // Stable: encoding the decoded message gives the same bytes (sorted keys).
        #expect(PartyProtocol.encode(decoded) == text)
    }

    @Test(arguments: Fixtures.everyMessage)
    func encodedMessageIsAFlatObjectWithItsType(_ message: PartyMessage) throws {
        let text = PartyProtocol.encode(message)
        let object = try jsonObject(text)
        #expect(object["type"] as? String == message.type)
        #expect(text.utf8.count < PartyProtocol.maxMessageBytes)
        #expect(!text.contains("\n"))
    }

    @Test func payloadFieldsSitBesideTheType() throws {
        let object = try jsonObject(PartyProtocol.encode(.timePing(TimePing(id: 3, t0: 1.5))))
        #expect(Set(object.keys) == ["type", "id", "t0"])
        #expect(object["id"] as? Int == 3)
        #expect(object["t0"] as? Double == 1.5)

        let empty = try jsonObject(PartyProtocol.encode(.bye))
        #expect(Set(empty.keys) == ["type"])

        let joined = try jsonObject(PartyProtocol.encode(.joined(Fixtures.bob)))
        #expect(Set(joined.keys) == ["type", "id", "name", "role", "joinedAt"])
        #expect(joined["role"] as? String == "participant")
    }

    @Test func absentOptionalsAreOmittedAndDecodeAsNil() throws {
        let text = PartyProtocol.encode(.command(Command(id: 1, action: .play)))
        #expect(!text.contains("value"))
        #expect(try PartyProtocol.decode(#"{"type":"command","id":1,"action":"play"}"#) == .command(Command(id: 1, action: .play)))
        #expect(try PartyProtocol.decode(#"{"type":"command","id":1,"action":"play","value":null}"#)
            == .command(Command(id: 1, action: .play)))
    }

    @Test func handWrittenMessagesDecode() throws {
        #expect(try PartyProtocol.decode(#"{"type":"bye"}"#) == .bye)
        #expect(try PartyProtocol.decode(#" { "type" : "listParticipants" } "#) == .listParticipants)
        #expect(try PartyProtocol.decode(#"{"t0": 2, "id": 5, "type": "timePing"}"#) == .timePing(TimePing(id: 5, t0: 2)))
        #expect(try PartyProtocol.decode(#"{"type":"hello","version":9,"party":"p","key":"k","name":"n"}"#)
            == .hello(Hello(party: "p", key: "k", name: "n")))
        #expect(try PartyProtocol.decode(#"{"type":"nodes","nodes":[{"host":"h","port":7}]}"#)
            == .nodes(NodeList(nodes: [NodeAddress(host: "h", port: 7)])))
    }

    /// A version-1 host's hello (items were file names) still decodes, as far as the version, so
    /// the server can answer with the version error rather than a bad-message one.
    @Test func aVersionOneHelloDecodesForTheVersionError() throws {
        let hello = try PartyProtocol.decode(
            #"{"type":"hello","version":1,"party":"p","key":"k","name":"n","create":{"items":["party.mp4"],"control":"host","handoff":false,"graceSeconds":30,"stallWaitSeconds":3}}"#)
        guard case .hello(let decoded) = hello else { Issue.record("not a hello: \(hello)"); return }
        #expect(decoded.version == 1)
        #expect(decoded.create == nil)
    }

    @Test func unknownFieldsAreIgnored() throws {
        #expect(try PartyProtocol.decode(#"{"type":"chat","text":"hi","extra":1,"nested":{"a":[1,2,{"b":null}]}}"#)
            == .chat(ChatText(text: "hi")))
        #expect(try PartyProtocol.decode(#"{"type":"bye","reason":"tired"}"#) == .bye)
        // A newer peer's extra fields inside nested objects too.
        var object = try jsonObject(PartyProtocol.encode(.welcome(Fixtures.welcome)))
        object["future"] = ["x": 1]
        var timeline = try #require(object["timeline"] as? [String: Any])
        timeline["smoothing"] = "on"
        object["timeline"] = timeline
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try PartyProtocol.decode(text) == .welcome(Fixtures.welcome))
    }

    // MARK: Errors

    @Test func unknownTypeIsReported() {
        #expect(decodeError(#"{"type":"dance","steps":3}"#) == .unknownType("dance"))
        #expect(decodeError(#"{"type":""}"#) == .unknownType(""))
        // Type names are case-sensitive.
        #expect(decodeError(#"{"type":"Bye"}"#) == .unknownType("Bye"))
    }

    @Test(arguments: ["", "hello", "{", "{\"type\":\"bye\"", "[1,2,3]", "\"bye\"", "42", "null", "{'type':'bye'}",
                      "{\"type\":\"bye\"}}", "\u{FEFF}\u{0}"])
    func notJSONObjectIsReported(_ text: String) {
        #expect(decodeError(text) == .notJSON)
    }

    @Test(arguments: [#"{}"#, #"{"text":"hi"}"#, #"{"type":5}"#, #"{"type":null}"#, #"{"type":["bye"]}"#, #"{"Type":"bye"}"#])
    func missingTypeIsReported(_ text: String) {
        #expect(decodeError(text) == .missingType)
    }

    /// A status with a sound output (protocol 6) goes through the codec both ways, nested object and all
    /// (the hot path leaves it to Foundation's).
    @Test func aStatusCarriesItsSoundOutput() throws {
        var status = Status(epoch: 3, state: .ready, skewMs: 0.5, rttMs: 1.2)
        status.output = OutputReport(driver: "pulse", device: "bluez_sink.headset", delayMs: 182.5, audioDelayMs: -40, renderedMs: 110)
        let text = PartyProtocol.encode(.status(status))
        #expect(text.contains(#""output":{"#))
        #expect(try PartyProtocol.decode(text) == .status(status))
        #expect(status.output?.summary == "pulse on bluez_sink.headset, 183 ms, audio delay -40 ms")
        #expect(abs((status.output?.committed ?? 0) - 0.2225) < 1e-9)
    }

    /// A live item (protocol 7) carries its origin; an item without it is not live.
    @Test func aLiveItemCarriesItsOrigin() throws {
        let live = MediaItem(title: "live.m3u8", url: "http://h/live.m3u8", identity: MediaIdentity(duration: 0, streams: ["video h264 160x120"]),
                             live: LiveOrigin(origin: 3.4))
        let hello = Hello(party: "p", key: "k", name: "n", create: PartyConfig(items: [live]))
        let text = PartyProtocol.encode(.hello(hello))
        #expect(text.contains(#""live":{"origin":3.4}"#))
        #expect(try PartyProtocol.decode(text) == .hello(hello))
        let plain = #"{"type":"hello","version":9,"party":"p","key":"k","name":"n","create":{"items":[{"title":"a.mp4","identity":{"duration":60,"streams":[]}}],"control":"host","handoff":false,"graceSeconds":30,"stallWaitSeconds":3}}"#
        guard case .hello(let decoded) = try PartyProtocol.decode(plain) else { Issue.record("not a hello"); return }
        #expect(decoded.create?.items.first?.live == nil)
    }

    /// Protocol 8: a live item carries the party's hold behind the edge, which the `live` command goes to.
    @Test func aLiveItemCarriesItsHoldBehindTheEdge() throws {
        let live = MediaItem(title: "live.m3u8", url: "http://h/live.m3u8", identity: MediaIdentity(duration: 0, streams: []),
                             live: LiveOrigin(origin: 10, delay: 6))
        let text = PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "n", create: PartyConfig(items: [live]))))
        #expect(text.contains(#""live":{"delay":6,"origin":10}"#) || text.contains(#""live":{"origin":10,"delay":6}"#), "\(text)")
        guard case .hello(let decoded) = try PartyProtocol.decode(text) else { Issue.record("not a hello"); return }
        #expect(decoded.create?.items.first?.live?.delay == 6)
    }

    /// Protocol 9: a URL item's separate sound stream travels with it; an item without one has none.
    @Test func anItemCarriesItsSeparateSound() throws {
        let split = MediaItem(title: "Two Streams", url: "http://h/v.mp4", identity: MediaIdentity(duration: 60, streams: []),
                              audioURL: "http://h/a.m4a")
        let text = PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "n", create: PartyConfig(items: [split]))))
        #expect(text.contains(#""audioURL":"http:\/\/h\/a.m4a""#) || text.contains(#""audioURL":"http://h/a.m4a""#), "\(text)")
        guard case .hello(let decoded) = try PartyProtocol.decode(text) else { Issue.record("not a hello"); return }
        #expect(decoded.create?.items.first?.audioURL == "http://h/a.m4a")
        let plain = MediaItem(title: "a.mp4", identity: MediaIdentity(duration: 60, streams: []))
        #expect(!PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "n", create: PartyConfig(items: [plain])))).contains("audioURL"))
    }

    /// The `live` command's seek: the edge (the member's moment plus what it read beyond it) less
    /// the hold; nothing when the party is already within half a second of that (never backwards).
    @Test func theLiveCommandGoesToTheHoldBehindTheEdge() {
        let held = LiveOrigin(origin: 10, delay: 6)
        #expect(held.livePosition(from: 20, readAhead: 16) == 30)
        #expect(held.livePosition(from: 20, readAhead: 6.4) == nil)
        #expect(held.livePosition(from: 20, readAhead: 2) == nil)
        let unmeasured = LiveOrigin(origin: 10)
        #expect(unmeasured.livePosition(from: 20, readAhead: 10) == 20 + 10 - LiveOrigin.fallbackDelay)
    }

    @Test func missingRequiredFieldIsReported() {
        #expect(decodeError(#"{"type":"timePing","id":1}"#) == .badFields(type: "timePing", detail: "missing \"t0\""))
        #expect(decodeError(#"{"type":"chat"}"#) == .badFields(type: "chat", detail: "missing \"text\""))
        #expect(decodeError(#"{"type":"hello","version":9,"party":"p","name":"n"}"#)
            == .badFields(type: "hello", detail: "missing \"key\""))
        // Nested: a left whose participant lacks joinedAt.
        guard case .badFields(let type, let detail) = decodeError(
            #"{"type":"left","reason":"r","participant":{"id":"p1","name":"A","role":"host"}}"#) else {
            Issue.record("expected badFields")
            return
        }
        #expect(type == "left")
        #expect(detail == "missing \"joinedAt\"")
    }

    @Test func wrongFieldTypeIsReported() {
        guard case .badFields(let type, let detail) = decodeError(#"{"type":"timePing","id":"one","t0":1}"#) else {
            Issue.record("expected badFields")
            return
        }
        #expect(type == "timePing")
        #expect(detail.hasPrefix("wrong type at"))
        #expect(detail.contains("id"))

        guard case .badFields(let t2, let d2) = decodeError(
            #"{"type":"left","reason":"r","participant":{"id":"p1","name":"A","role":"host","joinedAt":"now"}}"#) else {
            Issue.record("expected badFields")
            return
        }
        #expect(t2 == "left")
        #expect(d2 == "wrong type at participant.joinedAt")
    }

    @Test(arguments: [
        #"{"type":"timePing","id":null,"t0":1}"#,                          // null for a required field
        #"{"type":"command","id":1,"action":"jump"}"#,                      // not one of the enum's values
        #"{"type":"status","epoch":1,"state":"sleepy"}"#,
        #"{"type":"error","code":"teapot","message":"x"}"#,
        #"{"type":"joined","id":"p","name":"n","role":"king","joinedAt":1}"#,
        #"{"type":"timePing","id":1.5,"t0":1}"#,                            // not an integer
        #"{"type":"timePing","id":1e30,"t0":1}"#,                           // out of Int's range
        #"{"type":"participants","participants":{"a":1}}"#,                 // object for an array
        #"{"type":"chat","text":["a"]}"#,
        #"{"type":"timeline","epoch":1,"item":0,"position":0,"partyTime":0,"rate":1,"playing":"yes","jump":true}"#,
    ])
    func badFieldValuesAreReported(_ text: String) throws {
        let expectedType = try #require(try jsonObject(text)["type"] as? String)
        guard case .badFields(let type, let detail) = decodeError(text) else {
            Issue.record("expected badFields for \(text), got \(String(describing: decodeError(text)))")
            return
        }
        #expect(type == expectedType)
        #expect(!detail.isEmpty)
    }

    @Test func oversizedMessageIsRefusedBeforeParsing() {
        let text = PartyProtocol.encode(.chat(ChatText(text: String(repeating: "x", count: PartyProtocol.maxMessageBytes))))
        #expect(decodeError(text) == .tooBig(text.utf8.count))
        // Size is counted in UTF-8 bytes, not characters: 30 000 three-byte characters are too big.
        let wide = #"{"type":"chat","text":""# + String(repeating: "€", count: 30_000) + #""}"#
        #expect(wide.count < PartyProtocol.maxMessageBytes)
        #expect(decodeError(wide) == .tooBig(wide.utf8.count))
        // Even garbage is reported as too big first.
        let garbage = String(repeating: "}", count: PartyProtocol.maxMessageBytes + 1)
        #expect(decodeError(garbage) == .tooBig(PartyProtocol.maxMessageBytes + 1))
    }

    @Test func messageOfExactlyMaxBytesIsAccepted() throws {
        let overhead = PartyProtocol.encode(.chat(ChatText(text: ""))).utf8.count
        let text = PartyProtocol.encode(.chat(ChatText(text: String(repeating: "y", count: PartyProtocol.maxMessageBytes - overhead))))
        #expect(text.utf8.count == PartyProtocol.maxMessageBytes)
        let decoded = try PartyProtocol.decode(text)
        guard case .chat(let chat) = decoded else {
            Issue.record("expected chat")
            return
        }
        #expect(chat.text.count == PartyProtocol.maxMessageBytes - overhead)
    }

    @Test func errorDescriptionsAreHumanReadable() {
        #expect(DecodeError.tooBig(70_000).description.contains("70000"))
        #expect(DecodeError.notJSON.description == "not a JSON object")
        #expect(DecodeError.missingType.description.contains("type"))
        // An attacker-chosen type name is cut in the description.
        let long = String(repeating: "a", count: 500)
        #expect(DecodeError.unknownType(long).description.count < 100)
        #expect(DecodeError.badFields(type: "hello", detail: "missing \"key\"").description == "bad hello message: missing \"key\"")
    }

    /// JSON has no NaN or infinity. Encoding a message that carries one must not bring the process
    /// down (`encode` uses `try!`): a client's skew can be huge, a typed-in seek can be "inf".
    @Test func encodingANonFiniteNumberDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            _ = PartyProtocol.encode(.status(Status(epoch: 1, state: .ready, skewMs: -.infinity)))
        }
        await #expect(processExitsWith: .success) {
            _ = PartyProtocol.encode(.command(Command(id: 1, action: .seek, value: .nan)))
        }
    }

    // MARK: Fuzzing

    @Test func randomBytesNeverCrashTheDecoder() {
        var rng = SplitMix64(seed: 0xF022)
        var decoded = 0
        var errors: [String: Int] = [:]
        for i in 0..<5_000 {
            let length = Int.random(in: 0...(i % 10 == 0 ? 400 : 60), using: &rng)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Bias a share of them towards JSON-looking text so the parser goes deeper.
            if i % 3 == 0 {
                let alphabet = Array(#"{}[]":,0123456789.eE+-truefalsnl type\"bye"#.utf8)
                bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
                if i % 6 == 0 { bytes = Array(#"{"type":""#.utf8) + bytes }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let message = try PartyProtocol.decode(text)
                decoded += 1
                // Anything accepted must be re-encodable and stable.
                #expect(try PartyProtocol.decode(PartyProtocol.encode(message)) == message)
            } catch {
                errors[caseName(error), default: 0] += 1
            }
        }
        #expect(decoded + errors.values.reduce(0, +) == 5_000)
        #expect((errors["notJSON"] ?? 0) > 1_000)
    }

    @Test func mutatedValidMessagesNeverCrashTheDecoder() {
        var rng = SplitMix64(seed: 0xBADC0DE)
        let valid = Fixtures.everyMessage.map { Array(PartyProtocol.encode($0).utf8) }
        var decoded = 0
        var errors: [String: Int] = [:]
        for _ in 0..<5_000 {
            var bytes = valid[Int.random(in: 0..<valid.count, using: &rng)]
            let mutations = Int.random(in: 1...4, using: &rng)
            for _ in 0..<mutations where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)          // bit flip
                case 1: bytes.removeSubrange(at...)                                              // truncation
                case 2: bytes.insert(bytes[at], at: at)                                          // duplicated character
                case 3: bytes.remove(at: at)                                                     // removed character
                case 4:                                                                          // duplicated run
                    let end = min(bytes.count, at + Int.random(in: 1...12, using: &rng))
                    bytes.insert(contentsOf: bytes[at..<end], at: at)
                default: bytes[at] = Array(#"{}[]":,0-9.e"#.utf8).randomElement(using: &rng)!  // JSON punctuation
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let message = try PartyProtocol.decode(text)
                decoded += 1
                #expect(try PartyProtocol.decode(PartyProtocol.encode(message)) == message)
            } catch {
                errors[caseName(error), default: 0] += 1
            }
        }
        #expect(decoded + errors.values.reduce(0, +) == 5_000)
        // The mutations must reach every layer: some survive, some break the JSON, some break fields.
        #expect(decoded > 50)
        #expect((errors["notJSON"] ?? 0) > 500)
        #expect((errors["badFields"] ?? 0) + (errors["unknownType"] ?? 0) + (errors["missingType"] ?? 0) > 50)
    }

    private func caseName(_ error: DecodeError) -> String {
        switch error {
        case .tooBig: "tooBig"
        case .notJSON: "notJSON"
        case .missingType: "missingType"
        case .unknownType: "unknownType"
        case .badFields: "badFields"
        }
    }
}

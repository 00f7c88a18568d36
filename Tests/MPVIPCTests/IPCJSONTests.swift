import Testing
import MPVIPC

@Suite("IPCJSON parsing and serialization")
struct IPCJSONTests {
    @Test func parsesScalarsKeepingIntegersApart() {
        #expect(IPCJSON.parse("true") == .bool(true))
        #expect(IPCJSON.parse(" false ") == .bool(false))
        #expect(IPCJSON.parse("null") == .null)
        #expect(IPCJSON.parse("42") == .integer(42))
        #expect(IPCJSON.parse("-0") == .integer(0))
        #expect(IPCJSON.parse("42.0") == .double(42))
        #expect(IPCJSON.parse("1e3") == .double(1000))
        #expect(IPCJSON.parse("-2.5E-1") == .double(-0.25))
        #expect(IPCJSON.parse("9223372036854775807") == .integer(.max))
        #expect(IPCJSON.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(IPCJSON.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
    }

    @Test func parsesNestedStructures() {
        let parsed = IPCJSON.parse(#"{"command": ["seek", 5, "absolute"], "request_id": 3, "x": {}, "y": []}"#)
        #expect(parsed == ["command": ["seek", 5, "absolute"], "request_id": 3, "x": .object([:]), "y": []])
        #expect(parsed?["command"]?[0]?.stringValue == "seek")
        #expect(parsed?["command"]?[1]?.doubleValue == 5)
        #expect(parsed?["command"]?[3] == nil)
        #expect(parsed?["missing"] == nil)
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}", "{a:1}", "'x'", "tru", "nul",
        "01", "1.", ".5", "-", "1e", "+1", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"",
        "\"\\u12\"", "\"raw\ttab\"", "{} {}", "[] x", "NaN", "Infinity", "{\"a\":1,}",
    ])
    func rejectsMalformedText(_ text: String) {
        #expect(IPCJSON.parse(text) == nil)
    }

    @Test func limitsNestingDepth() {
        let shallow = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(IPCJSON.parse(shallow) != nil)
        #expect(IPCJSON.parse(deep) == nil)
    }

    @Test func serializesCompactlyWithSortedKeys() {
        let value: IPCJSON = ["request_id": 7, "error": "success", "data": 12.5]
        #expect(value.serialized == #"{"data":12.5,"error":"success","request_id":7}"#)
        #expect(IPCJSON.array([.null, true, 1, 0.25, "x"]).serialized == #"[null,true,1,0.25,"x"]"#)
        #expect(IPCJSON.double(3).serialized == "3.0")
        #expect(IPCJSON.double(.nan).serialized == "null")
        #expect(IPCJSON.double(.infinity).serialized == "null")
        #expect(IPCJSON.string("q\"b\\n\n\u{1}é").serialized == #""q\"b\\n\n\u0001é""#)
    }

    @Test func roundTrips() {
        let value: IPCJSON = ["event": "property-change", "id": -3, "name": "speed", "data": 1.5,
                              "list": [["nested": .null], "emoji 😀", false]]
        #expect(IPCJSON.parse(value.serialized) == value)
    }
}

import Testing
import MPVIPC

@Suite("JSONValue through Foundation's coders")
struct JSONValueTests {
    @Test func parsesScalars() {
        #expect(JSONValue.parse("true") == .bool(true))
        #expect(JSONValue.parse(" false ") == .bool(false))
        #expect(JSONValue.parse("null") == .null)
        #expect(JSONValue.parse("42") == .number(42))
        #expect(JSONValue.parse("-0") == .number(0))
        #expect(JSONValue.parse("1e3") == .number(1000))
        #expect(JSONValue.parse("-2.5E-1") == .number(-0.25))
        #expect(JSONValue.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
        #expect(JSONValue.parse("\"12\"") == .string("12"))  // strings stay strings
    }

    @Test func integersAreNumbersWithoutAFraction() {
        #expect(JSONValue.parse("42")?.integerValue == 42)
        #expect(JSONValue.parse("-9")?.integerValue == -9)
        #expect(JSONValue.parse("1.5")?.integerValue == nil)
        #expect(JSONValue.parse("\"1\"")?.integerValue == nil)
        #expect(JSONValue.parse("1e300")?.integerValue == nil)  // beyond Int64
    }

    @Test func parsesNestedStructures() {
        let parsed = JSONValue.parse(#"{"command": ["seek", 5, "absolute"], "request_id": 3, "x": {}, "y": []}"#)
        #expect(parsed == ["command": ["seek", 5, "absolute"], "request_id": 3, "x": .object([:]), "y": []])
        #expect(parsed?["command"]?[0]?.stringValue == "seek")
        #expect(parsed?["command"]?[1]?.doubleValue == 5)
        #expect(parsed?["command"]?[3] == nil)
        #expect(parsed?["missing"] == nil)
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1 2]", "{\"a\"}", "{\"a\":}", "{a:1}", "'x'", "tru", "nul",
        "01", "1.", ".5", "-", "1e", "+1", "1e400", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"",
        "\"\\u12\"", "\"raw\ttab\"", "{} {}", "[] x", "NaN", "Infinity", "[,]", "[1,,]",
    ])
    func rejectsMalformedText(_ text: String) {
        #expect(JSONValue.parse(text) == nil)
    }

    @Test func acceptsATrailingCommaAsMPVDoes() {
        #expect(JSONValue.parse("[1,]") == [1])
        #expect(JSONValue.parse(#"{"a":1,}"#) == ["a": 1])
    }

    @Test func limitsNestingDepthAsMPVDoes() {
        // mpv counts every value: 50 nested arrays pass, a 51st level (even a scalar) does not.
        let fifty = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        let fiftyOne = String(repeating: "[", count: 51) + String(repeating: "]", count: 51)
        let scalarAt51 = String(repeating: "[", count: 50) + "1" + String(repeating: "]", count: 50)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONValue.parse(fifty) != nil)
        #expect(JSONValue.parse(fiftyOne) == nil)
        #expect(JSONValue.parse(scalarAt51) == nil)
        #expect(JSONValue.parse(deep) == nil)
    }

    @Test func serializesCompactlyWithSortedKeysAndPlainSlashes() {
        let value: JSONValue = ["request_id": 7, "error": "success", "data": 12.5]
        #expect(value.serialized == #"{"data":12.5,"error":"success","request_id":7}"#)
        #expect(JSONValue.array([.null, true, 1, 0.25, "x"]).serialized == #"[null,true,1,0.25,"x"]"#)
        #expect(JSONValue.number(.nan).serialized == "null")
        #expect(JSONValue.number(.infinity).serialized == "null")
        #expect(JSONValue.string("q\"b\\n\n\u{1}é").serialized == #""q\"b\\n\n\u0001é""#)
        #expect(JSONValue.string("/tmp/tandem.sock").serialized == #""/tmp/tandem.sock""#)
    }

    @Test func roundTrips() {
        let value: JSONValue = ["event": "property-change", "id": -3, "name": "speed", "data": 1.5,
                                "list": [["nested": .null], "emoji 😀", false], "big": 9_007_199_254_740_992]
        #expect(JSONValue.parse(value.serialized) == value)
    }
}

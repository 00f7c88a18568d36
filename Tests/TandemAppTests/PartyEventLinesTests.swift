import Foundation
import MPVIPC
import PartyKit
import Testing
@testable import TandemApp

/// `tandem host/join --json`.
@Suite struct PartyEventLinesTests {
    struct Chat: Decodable, Equatable {
        var event: String
        var from: String
        var text: String
    }

    @Test func chatIsItsOwnEvent() throws {
        let recorder = LineRecorder()
        let output = PartyOutput(json: true, statusLine: false, lines: recorder.writer)
        output.notice(.chat(ChatMessage(from: "alice", text: "see https://example.com/a \"quoted\"", time: 12)))
        #expect(recorder.lines == [#"{"event":"chat","from":"alice","text":"see https://example.com/a \"quoted\""}"#])
        #expect(try recorder.decoded(Chat.self) == [Chat(event: "chat", from: "alice", text: "see https://example.com/a \"quoted\"")])
    }

    @Test func noticesInfoAndTheLink() {
        let recorder = LineRecorder()
        let output = PartyOutput(json: true, statusLine: false, lines: recorder.writer)
        output.notice(.refused("only the host may seek"))
        output.notice(.partyEnded("the host left"))
        output.line("party ended: the host left")
        output.link(PartyLink(host: "127.0.0.1", port: 9000, party: "demo", key: "k"))
        expectWellFormed(recorder)
        let values = recorder.values
        #expect(values[0] == ["event": "notice", "text": "refused: only the host may seek"])
        #expect(values[1] == ["event": "notice", "text": "party ended: the host left"])
        #expect(values[2] == ["event": "info", "text": "party ended: the host left"])
        #expect(values[3]["event"] == "party" && values[3]["party"] == "demo")
        #expect(values[3]["link"] == .string(PartyLink(host: "127.0.0.1", port: 9000, party: "demo", key: "k").description))
        #expect(recorder.lines[3].contains("tandem://127.0.0.1:9000/party/demo"))  // slashes as they are
        #expect(values[3]["web"] == "https://127.0.0.1:9000/p/demo#key=k", "the browser link, the key in its fragment")
    }

    @Test func statusWithUnknownSkewAndPositionWritesNull() {
        let line = JSONLineWriter.line(PartyEvent.status(.init(party: "demo", participants: 3, synced: false, skewMs: nil,
                                                               position: nil, playing: false, connected: true)))
        #expect(line == #"{"connected":true,"event":"status","participants":3,"party":"demo","playing":false,"position":null,"skewMs":null,"synced":false}"#)
        let known = JSONLineWriter.line(PartyEvent.status(.init(party: "demo", participants: 1, synced: true, skewMs: 0.125,
                                                                position: 31.5, playing: true, connected: true)))
        #expect(JSONValue.parse(known)?["skewMs"] == 0.125)
        #expect(JSONValue.parse(known)?["position"] == 31.5)
    }

    @Test func withoutJSONNothingGoesToTheLines() {
        let recorder = LineRecorder()
        let output = PartyOutput(json: false, statusLine: false, lines: recorder.writer)
        output.line("hello")
        #expect(recorder.lines.isEmpty)
    }
}

extension PartyEventLinesTests {
    @Test func aBufferingMembersStatusSaysSo() {
        let line = JSONLineWriter.line(PartyEvent.status(.init(party: "demo", participants: 3, synced: false, skewMs: nil,
                                                               position: 12, playing: true, connected: true, buffering: true)))
        #expect(JSONValue.parse(line)?["buffering"] == true)
    }
}

extension PartyEventLinesTests {
    /// A live item's status says how far behind the live edge the member is; other items' never do.
    @Test func aLiveItemsStatusSaysHowFarBehindTheEdge() {
        let live = JSONLineWriter.line(PartyEvent.status(.init(party: "demo", participants: 2, synced: true, skewMs: 0.1, position: 31,
                                                               playing: true, connected: true, behindLive: 7.96)))
        #expect(JSONValue.parse(live)?["behindLiveSeconds"] == 8)
        let file = JSONLineWriter.line(PartyEvent.status(.init(party: "demo", participants: 2, synced: true, skewMs: 0.1, position: 31,
                                                               playing: true, connected: true)))
        #expect(JSONValue.parse(file)?["behindLiveSeconds"] == nil)
    }
}

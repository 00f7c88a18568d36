import Testing
import MPVIPC

/// Runs one line through a handler and returns the single reply (there must be exactly one message).
private func reply(_ line: String, on handler: inout IPCRequestHandler) async -> JSONValue? {
    let response = await handler.handle(line: line)
    #expect(response.messages.count == 1, "expected one reply to \(line), got \(response.messages)")
    return response.messages.first
}

private func reply(_ line: String, target: FakeTarget) async -> JSONValue? {
    var handler = IPCRequestHandler(target: target)
    return await reply(line, on: &handler)
}

@Suite("IPCRequestHandler without sockets")
struct IPCRequestHandlerTests {
    // MARK: get_property

    @Test func getsEachProperty() async {
        let target = FakeTarget(timePos: 12.5, paused: true, speed: 1.25, duration: 90)
        #expect(await reply(#"{"command":["get_property","time-pos"],"request_id":1}"#, target: target)
            == ["data": 12.5, "error": "success", "request_id": 1])
        #expect(await reply(#"{"command":["get_property","pause"],"request_id":2}"#, target: target)
            == ["data": true, "error": "success", "request_id": 2])
        #expect(await reply(#"{"command":["get_property","speed"],"request_id":3}"#, target: target)
            == ["data": 1.25, "error": "success", "request_id": 3])
        #expect(await reply(#"{"command":["get_property","duration"],"request_id":4}"#, target: target)
            == ["data": 90.0, "error": "success", "request_id": 4])
    }

    @Test func timeSampleCarriesThePositionWithItsInstantAndIsReadOnly() async {
        let target = FakeTarget(timePos: 12.5, paused: true)
        #expect(await reply(#"{"command":["get_property","tandem-time-sample"],"request_id":1}"#, target: target)
            == ["data": ["time-pos": 12.5, "pause": true, "at": 42.0], "error": "success", "request_id": 1])
        #expect(await reply(#"{"command":["set_property","tandem-time-sample",3],"request_id":2}"#, target: target)
            == ["error": "error accessing property", "request_id": 2])
    }

    @Test func replyTextMatchesMPV() async {
        var handler = IPCRequestHandler(target: FakeTarget(timePos: 12.3))
        let response = await handler.handle(line: #"{ "command": ["get_property", "time-pos"], "request_id": 42 }"#)
        #expect(response.messages.map(\.serialized) == [#"{"data":12.3,"error":"success","request_id":42}"#])
        #expect(response.quitRequested == false)
    }

    @Test func requestIDDefaultsToZeroAndIsEchoedVerbatim() async {
        let target = FakeTarget()
        #expect(await reply(#"{"command":["get_property","pause"]}"#, target: target)?["request_id"] == 0)
        #expect(await reply(#"{"command":["get_property","pause"],"request_id":-9}"#, target: target)?["request_id"] == -9)
        // mpv warns about non-integer ids but still echoes them.
        #expect(await reply(#"{"command":["get_property","pause"],"request_id":"abc"}"#, target: target)?["request_id"] == "abc")
        #expect(await reply(#"{"command":["nope"],"request_id":5}"#, target: target)?["request_id"] == 5)
    }

    @Test func unavailableDurationIsAnErrorWithoutData() async {
        let target = FakeTarget(duration: nil)
        #expect(await reply(#"{"command":["get_property","duration"],"request_id":1}"#, target: target)
            == ["error": "property unavailable", "request_id": 1])
    }

    @Test func unknownPropertyIsNotFound() async {
        let target = FakeTarget()
        #expect(await reply(#"{"command":["get_property","volume"]}"#, target: target)
            == ["error": "property not found", "request_id": 0])
        #expect(await reply(#"{"command":["set_property","volume",50]}"#, target: target)?["error"] == "property not found")
        #expect(await reply(#"{"command":["observe_property",1,"volume"]}"#, target: target)?["error"] == "property not found")
    }

    @Test(arguments: [
        #"{"command":["get_property"]}"#,
        #"{"command":["get_property","pause","extra"]}"#,
        #"{"command":["get_property",1]}"#,
        #"{"command":["set_property","pause"]}"#,
        #"{"command":["set_property",true,true]}"#,
        #"{"command":["seek"]}"#,
        #"{"command":["seek","soon"]}"#,
        #"{"command":["seek",5,"sideways"]}"#,
        #"{"command":["seek",5,"absolute+relative"]}"#,
        #"{"command":["seek",5,"absolute-percent"]}"#,
        #"{"command":["seek",5,3]}"#,
        #"{"command":["seek",5,"absolute","exact"]}"#,
        #"{"command":["quit",0,1]}"#,
        #"{"command":["observe_property","1","pause"]}"#,
        #"{"command":["observe_property",1.5,"pause"]}"#,
        #"{"command":["observe_property",1]}"#,
        #"{"command":["unobserve_property"]}"#,
        #"{"command":["unobserve_property","x"]}"#,
        #"{"command":["loadfile","x.mkv"]}"#,
        #"{"command":["GET_PROPERTY","pause"]}"#,
    ])
    func badArgumentsAreInvalidParameter(_ line: String) async {
        #expect(await reply(line, target: FakeTarget())?["error"] == "invalid parameter")
    }

    // MARK: set_property

    @Test func setsPause() async {
        let target = FakeTarget(paused: false)
        #expect(await reply(#"{"command":["set_property","pause",true],"request_id":3}"#, target: target)
            == ["error": "success", "request_id": 3])
        #expect(await target.paused == true)
        _ = await reply(#"{"command":["set_property","pause","no"]}"#, target: target)
        #expect(await target.paused == false)
        _ = await reply(#"{"command":["set_property","pause","yes"]}"#, target: target)
        #expect(await target.paused == true)
    }

    @Test func setsSpeed() async {
        let target = FakeTarget()
        #expect(await reply(#"{"command":["set_property","speed",1.5]}"#, target: target)?["error"] == "success")
        #expect(await target.speed == 1.5)
        _ = await reply(#"{"command":["set_property","speed",2]}"#, target: target)
        #expect(await target.speed == 2)
        _ = await reply(#"{"command":["set_property","speed","0.5"]}"#, target: target)
        #expect(await target.speed == 0.5)
    }

    @Test func rejectsBadValues() async {
        let target = FakeTarget(paused: false, speed: 1)
        let wrongType = "unsupported format for accessing property"
        #expect(await reply(#"{"command":["set_property","pause",1]}"#, target: target)?["error"] == .string(wrongType))
        #expect(await reply(#"{"command":["set_property","pause","maybe"]}"#, target: target)?["error"] == .string(wrongType))
        #expect(await reply(#"{"command":["set_property","speed",true]}"#, target: target)?["error"] == .string(wrongType))
        #expect(await reply(#"{"command":["set_property","speed",0]}"#, target: target)?["error"] == "error accessing property")
        #expect(await reply(#"{"command":["set_property","speed",1000]}"#, target: target)?["error"] == "error accessing property")
        #expect(await reply(#"{"command":["set_property","duration",5]}"#, target: target)?["error"] == "error accessing property")
        #expect(await target.paused == false)
        #expect(await target.speed == 1)
    }

    @Test func settingTimePosSeeksAbsolutely() async {
        let target = FakeTarget(timePos: 50)
        #expect(await reply(#"{"command":["set_property","time-pos",30]}"#, target: target)?["error"] == "success")
        _ = await reply(#"{"command":["set_property","time-pos",-4]}"#, target: target)
        #expect(await target.seeks == [30, 0])
    }

    // MARK: seek

    @Test func seekIsRelativeByDefault() async {
        let target = FakeTarget(timePos: 12.5)
        #expect(await reply(#"{"command":["seek",5],"request_id":8}"#, target: target)
            == ["data": .null, "error": "success", "request_id": 8])
        _ = await reply(#"{"command":["seek",-2.5,"relative"]}"#, target: target)
        #expect(await target.seeks == [17.5, 15])
    }

    @Test func seekAbsoluteWithMPVFlags() async {
        let target = FakeTarget(timePos: 12.5)
        _ = await reply(#"{"command":["seek",30,"absolute"]}"#, target: target)
        _ = await reply(#"{"command":["seek","42.5","absolute+exact"]}"#, target: target)
        _ = await reply(#"{"command":["seek",3,"keyframes"]}"#, target: target)  // relative
        #expect(await target.seeks == [30, 42.5, 45.5])
    }

    @Test func seekBeforeStartClampsToZero() async {
        let target = FakeTarget(timePos: 10)
        _ = await reply(#"{"command":["seek",-60]}"#, target: target)
        _ = await reply(#"{"command":["seek",-1,"absolute"]}"#, target: target)
        #expect(await target.seeks == [0, 0])
    }

    @Test func relativeSeekWithoutPositionFails() async {
        let target = FakeTarget(timePos: nil)
        #expect(await reply(#"{"command":["seek",5]}"#, target: target)?["error"] == "error running command")
        #expect(await reply(#"{"command":["seek",5,"absolute"]}"#, target: target)?["error"] == "success")
        #expect(await target.seeks == [5])
    }

    @Test func refusalReasonIsTheError() async {
        let target = FakeTarget()
        await target.refuseSeeks(IPCRefusal("only the host may seek in this party"))
        #expect(await reply(#"{"command":["seek",5],"request_id":2}"#, target: target)
            == ["error": "only the host may seek in this party", "request_id": 2])
        #expect(await reply(#"{"command":["set_property","time-pos",5]}"#, target: target)?["error"]
            == "only the host may seek in this party")
        #expect(await target.seeks.isEmpty)
    }

    // MARK: quit

    @Test func quitIsRequestedNotPerformed() async {
        let target = FakeTarget()
        var handler = IPCRequestHandler(target: target)
        let response = await handler.handle(line: #"{"command":["quit"],"request_id":1}"#)
        #expect(response.messages == [["data": .null, "error": "success", "request_id": 1]])
        #expect(response.quitRequested)
        #expect(await target.quitCount == 0)  // the caller quits after sending the reply
        #expect(await handler.handle(line: #"{"command":["quit",3]}"#).quitRequested)
    }

    // MARK: playlist-next / playlist-prev

    @Test func playlistCommandsReachTheTargetAndItsRefusalIsMPVs() async {
        let target = FakeTarget()
        #expect(await reply(#"{"command":["playlist-next"],"request_id":1}"#, target: target)
            == ["error": "error running command", "request_id": 1])
        await target.setHasPlaylist(true)
        #expect(await reply(#"{"command":["playlist-next"],"request_id":2}"#, target: target)
            == ["data": .null, "error": "success", "request_id": 2])
        #expect(await reply(#"{"command":["playlist-prev","weak"],"request_id":3}"#, target: target)
            == ["data": .null, "error": "success", "request_id": 3])
        #expect(await reply(#"{"command":["playlist-prev","sideways"],"request_id":4}"#, target: target)
            == ["error": "invalid parameter", "request_id": 4])
        #expect(await target.playlistSteps == [1, -1])
    }

    /// A target that does not implement playlists (the party's) refuses as mpv does at a playlist's end.
    @Test func aTargetWithoutAPlaylistRefuses() async {
        struct Plain: IPCTarget {
            func property(_ property: IPCProperty) async -> IPCValue? { nil }
            func setPause(_ paused: Bool) async throws(IPCRefusal) {}
            func setSpeed(_ speed: Double) async throws(IPCRefusal) {}
            func seek(to seconds: Double) async throws(IPCRefusal) {}
            func quit() async {}
            func propertyChanges() -> AsyncStream<IPCPropertyChange> { AsyncStream { $0.finish() } }
        }
        var handler = IPCRequestHandler(target: Plain())
        #expect(await reply(#"{"command":["playlist-prev"],"request_id":1}"#, on: &handler)
            == ["error": "error running command", "request_id": 1])
    }

    // MARK: observe_property

    @Test func observeRepliesThenSendsTheCurrentValue() async {
        var handler = IPCRequestHandler(target: FakeTarget(paused: false))
        let response = await handler.handle(line: #"{"command":["observe_property",1,"pause"],"request_id":9}"#)
        #expect(response.messages == [
            ["error": "success", "request_id": 9],
            ["event": "property-change", "id": 1, "name": "pause", "data": false],
        ])
    }

    @Test func observeUnavailablePropertySendsEventWithoutData() async {
        var handler = IPCRequestHandler(target: FakeTarget(duration: nil))
        let response = await handler.handle(line: #"{"command":["observe_property",4,"duration"]}"#)
        #expect(response.messages.last == ["event": "property-change", "id": 4, "name": "duration"])
        #expect(handler.propertyChanged(IPCPropertyChange(.duration, .double(60)))
            == [["event": "property-change", "id": 4, "name": "duration", "data": 60.0]])
        #expect(handler.propertyChanged(IPCPropertyChange(.duration, nil))
            == [["event": "property-change", "id": 4, "name": "duration"]])
    }

    @Test func changesReachOnlyMatchingObserversAndOnlyWhenDifferent() async {
        var handler = IPCRequestHandler(target: FakeTarget(paused: false, speed: 1))
        _ = await handler.handle(line: #"{"command":["observe_property",1,"pause"]}"#)
        _ = await handler.handle(line: #"{"command":["observe_property",2,"speed"]}"#)
        #expect(handler.propertyChanged(IPCPropertyChange(.pause, .bool(false))).isEmpty)  // same as initial
        #expect(handler.propertyChanged(IPCPropertyChange(.pause, .bool(true)))
            == [["event": "property-change", "id": 1, "name": "pause", "data": true]])
        #expect(handler.propertyChanged(IPCPropertyChange(.pause, .bool(true))).isEmpty)
        #expect(handler.propertyChanged(IPCPropertyChange(.speed, .double(2)))
            == [["event": "property-change", "id": 2, "name": "speed", "data": 2.0]])
        #expect(handler.propertyChanged(IPCPropertyChange(.timePos, .double(3))).isEmpty)  // not observed
    }

    @Test func severalObserversOfOneProperty() async {
        var handler = IPCRequestHandler(target: FakeTarget(paused: false))
        _ = await handler.handle(line: #"{"command":["observe_property",1,"pause"]}"#)
        _ = await handler.handle(line: #"{"command":["observe_property",7,"pause"]}"#)
        let events = handler.propertyChanged(IPCPropertyChange(.pause, .bool(true)))
        #expect(events.compactMap { $0["id"] } == [1, 7])
    }

    @Test func unobserveStopsEvents() async {
        var handler = IPCRequestHandler(target: FakeTarget(paused: false))
        _ = await handler.handle(line: #"{"command":["observe_property",1,"pause"]}"#)
        _ = await handler.handle(line: #"{"command":["observe_property",2,"speed"]}"#)
        #expect(await reply(#"{"command":["unobserve_property",1],"request_id":4}"#, on: &handler)
            == ["error": "success", "request_id": 4])
        #expect(handler.propertyChanged(IPCPropertyChange(.pause, .bool(true))).isEmpty)
        #expect(handler.propertyChanged(IPCPropertyChange(.speed, .double(3))).count == 1)
        // Unknown ids are fine, as in mpv.
        #expect(await reply(#"{"command":["unobserve_property",99]}"#, on: &handler)?["error"] == "success")
    }

    // MARK: garbage

    @Test(arguments: ["", "   ", "\r", "\t \r"])
    func blankLinesAreIgnored(_ line: String) async {
        var handler = IPCRequestHandler(target: FakeTarget())
        #expect(await handler.handle(line: line) == IPCResponse(messages: []))
    }

    @Test(arguments: [
        "hello", "cycle pause", "{", "}", "{]", "null", "42", "\"str\"", "[\"get_property\",\"pause\"]",
        "{\"command\":\"get_property pause\"}", "{\"command\":[]}", "{\"command\":[1,2]}", "{\"command\":null}",
        "{\"request_id\":1}", "{}", "\u{0}\u{1}\u{2}", "{\"command\":[\"quit\"]} trailing",
        "{\"command\":[\"get_property\",\"pause\"]",
        "deeply nested arrays", "deeply nested objects",
    ])
    func garbageGetsInvalidParameter(_ line: String) async {
        // Huge inputs are built here so they do not flood the test log as arguments.
        let line = switch line {
        case "deeply nested arrays": String(repeating: "[", count: 100_000)
        case "deeply nested objects": String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        default: line
        }
        var handler = IPCRequestHandler(target: FakeTarget())
        let response = await handler.handle(line: line)
        let expected: [String: JSONValue] = ["error": "invalid parameter", "request_id": 0]
        // A well-formed object with a request_id keeps it; everything else gets 0.
        if case .object(let members)? = response.messages.first, members["request_id"] != 0 {
            #expect(members["error"] == "invalid parameter")
        } else {
            #expect(response.messages == [.object(expected)])
        }
        #expect(!response.quitRequested)
    }

    @Test func trailingCommasAreAcceptedAsInMPV() async {
        let target = FakeTarget(paused: true)
        #expect(await reply(#"{"command":["get_property","pause",],"request_id":1,}"#, target: target)
            == ["data": true, "error": "success", "request_id": 1])
    }

    @Test func deepNestingAnywhereIsRejected() async {
        // Even in a member the server ignores, as mpv parses the whole request first.
        let deep = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        let line = #"{"command":["get_property","pause"],"request_id":4,"x":"# + deep + "}"
        #expect(await reply(line, target: FakeTarget()) == ["error": "invalid parameter", "request_id": 0])
    }

    @Test func malformedCommandKeepsTheRequestID() async {
        #expect(await reply(#"{"command":"get_property pause","request_id":6}"#, target: FakeTarget())
            == ["error": "invalid parameter", "request_id": 6])
        #expect(await reply(#"{"command":[],"request_id":7}"#, target: FakeTarget())
            == ["error": "invalid parameter", "request_id": 7])
    }

    @Test func handlerKeepsWorkingAfterGarbage() async {
        let target = FakeTarget()
        var handler = IPCRequestHandler(target: target)
        _ = await handler.handle(line: "\u{FFFD}\u{FFFD}garbage")
        _ = await handler.handle(line: "{\"command\":[\"observe_property\",1,\"pause\"]}")
        _ = await handler.handle(line: String(repeating: "x", count: 100_000))
        #expect(await reply(#"{"command":["get_property","pause"],"request_id":1}"#, on: &handler)
            == ["data": false, "error": "success", "request_id": 1])
        #expect(handler.propertyChanged(IPCPropertyChange(.pause, .bool(true))).count == 1)
    }
}

import Testing
import TestSupport
@testable import MPVIPC

/// Property changes queued for a client are bounded: a client that stops reading costs at most one
/// waiting change per property, however many changes the application makes meanwhile.
@Suite("IPC clients that stop reading")
struct IPCSlowClientTests {
    @Test func aClientThatStopsReadingGetsOnlyTheLatestValues() async throws {
        let target = FakeTarget(paused: false, speed: 1, duration: 100)
        try await withServer(target: target) { server, path in
            let sleeper = try SocketClient(path: path)
            let watcher = try SocketClient(path: path)
            for (id, name) in [(1, "pause"), (2, "duration")] {
                try await sleeper.send(request: ["command": ["observe_property", .number(Double(id)), .string(name)]])
                #expect(try await sleeper.nextMessage()["error"] == "success")
                #expect(try await sleeper.nextMessage()["event"] == "property-change")
            }
            try await watcher.send(request: ["command": ["observe_property", 3, "speed"]])
            #expect(try await watcher.nextMessage()["error"] == "success")
            #expect(try await watcher.nextMessage()["data"] == 1.0)

            // The sleeper stops reading while the application keeps changing pause.
            // An odd count: the last value (true) differs from the one the sleeper saw (false), so it
            // must arrive however much was coalesced (a coalesced change back to the value the client
            // already has is, as in mpv, no change at all).
            let changes = 50_001
            for index in 1...changes {
                await target.publish(IPCPropertyChange(.pause, .bool(index % 2 == 1)))
            }
            await target.publish(IPCPropertyChange(.duration, .double(42)))
            await target.publish(IPCPropertyChange(.speed, .double(2)))
            // Changes reach every client in order: once the watcher has this one, the sleeper has had them all.
            #expect(try await watcher.nextMessage()["data"] == 2.0)
            // The sleeper's serving task is stuck writing; what waits for it is one change per property.
            let backlogs = await server.clientBacklogs
            #expect(backlogs.count == 2)
            #expect(backlogs.allSatisfy { $0.count <= IPCConnectionInbox.maxPendingChanges })
            #expect(backlogs.contains { $0.coalesced > 0 })

            // The sleeper wakes up: far fewer events than changes, and the latest values.
            var pauseEvents = 0
            var lastPause: JSONValue?
            while true {
                let event = try await sleeper.nextMessage()
                if event["name"] == "duration" {
                    #expect(event["data"] == 42.0)
                    break
                }
                pauseEvents += 1
                lastPause = event["data"]
            }
            #expect(lastPause == true)
            #expect(pauseEvents < changes / 2, "\(pauseEvents) pause events were queued for a client that did not read")
        }
    }
}

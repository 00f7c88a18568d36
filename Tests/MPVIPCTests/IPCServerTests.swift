#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MPVIPC
import Testing
import TestSupport

@Suite("IPCServer over a real UNIX socket")
struct IPCServerTests {
    @Test func getPropertyOverTheSocket() async throws {
        try await withServer(target: FakeTarget(timePos: 12.3)) { server, path in
            #expect(await server.isListening)
            let client = try SocketClient(path: path)
            try await client.send(#"{"command":["get_property","time-pos"],"request_id":1}"# + "\n")
            #expect(try await client.nextLine() == #"{"data":12.3,"error":"success","request_id":1}"#)
            try await client.send(#"{"command":["get_property","duration"]}"# + "\n")
            #expect(try await client.nextMessage() == ["data": 100.0, "error": "success", "request_id": 0])
        }
    }

    @Test func setPropertySeekAndQuit() async throws {
        let target = FakeTarget(timePos: 10, paused: false)
        try await withServer(target: target) { _, path in
            let client = try SocketClient(path: path)
            try await client.send(request: ["command": ["set_property", "pause", true], "request_id": 1])
            #expect(try await client.nextMessage() == ["error": "success", "request_id": 1])
            #expect(await target.paused)

            try await client.send(request: ["command": ["set_property", "speed", 1.5], "request_id": 2])
            #expect(try await client.nextMessage() == ["error": "success", "request_id": 2])
            #expect(await target.speed == 1.5)

            try await client.send(request: ["command": ["seek", 5], "request_id": 3])
            #expect(try await client.nextMessage() == ["data": .null, "error": "success", "request_id": 3])
            try await client.send(request: ["command": ["seek", 42, "absolute"], "request_id": 4])
            #expect(try await client.nextMessage()["error"] == "success")
            #expect(await target.seeks == [15, 42])

            await target.refuseSeeks(IPCRefusal("only the host may seek in this party"))
            try await client.send(request: ["command": ["seek", 1], "request_id": 5])
            #expect(try await client.nextMessage() == ["error": "only the host may seek in this party", "request_id": 5])

            try await client.send(request: ["command": ["get_property", "volume"], "request_id": 6])
            #expect(try await client.nextMessage()["error"] == "property not found")
            try await client.send(request: ["command": ["frobnicate"], "request_id": 7])
            #expect(try await client.nextMessage()["error"] == "invalid parameter")

            try await client.send(request: ["command": ["quit"], "request_id": 8])
            #expect(try await client.nextMessage() == ["data": .null, "error": "success", "request_id": 8])
            #expect(await eventually { await target.quitCount == 1 })
        }
    }

    @Test func observersGetInitialValueThenChanges() async throws {
        let target = FakeTarget(paused: false, speed: 1)
        try await withServer(target: target) { _, path in
            let client = try SocketClient(path: path)
            try await client.send(request: ["command": ["observe_property", 1, "pause"], "request_id": 1])
            #expect(try await client.nextMessage() == ["error": "success", "request_id": 1])
            #expect(try await client.nextLine() == #"{"data":false,"event":"property-change","id":1,"name":"pause"}"#)
            try await client.send(request: ["command": ["observe_property", 2, "speed"]])
            #expect(try await client.nextMessage()["error"] == "success")
            #expect(try await client.nextMessage() == ["event": "property-change", "id": 2, "name": "speed", "data": 1.0])

            // A change requested by this client: reply first, then the event.
            try await client.send(request: ["command": ["set_property", "pause", true], "request_id": 3])
            #expect(try await client.nextMessage() == ["error": "success", "request_id": 3])
            #expect(try await client.nextMessage() == ["event": "property-change", "id": 1, "name": "pause", "data": true])

            // Changes made by the application itself.
            await target.publish(IPCPropertyChange(.speed, .double(2)))
            #expect(try await client.nextMessage() == ["event": "property-change", "id": 2, "name": "speed", "data": 2.0])
            await target.publish(IPCPropertyChange(.speed, .double(2)))  // unchanged: no event
            await target.publish(IPCPropertyChange(.pause, .bool(false)))
            #expect(try await client.nextMessage() == ["event": "property-change", "id": 1, "name": "pause", "data": false])

            try await client.send(request: ["command": ["unobserve_property", 1], "request_id": 4])
            #expect(try await client.nextMessage() == ["error": "success", "request_id": 4])
            await target.publish(IPCPropertyChange(.pause, .bool(true)))
            #expect(try await client.staysSilent(for: .milliseconds(100)))
        }
    }

    @Test func twoClientsAtOnce() async throws {
        let target = FakeTarget(paused: false)
        try await withServer(target: target) { server, path in
            let alice = try SocketClient(path: path)
            let bob = try SocketClient(path: path)
            for (client, id) in [(alice, 10), (bob, 20)] {
                try await client.send(request: ["command": ["observe_property", .number(Double(id)), "pause"]])
                #expect(try await client.nextMessage()["error"] == "success")
                #expect(try await client.nextMessage()["data"] == false)
            }
            #expect(await server.clientCount == 2)

            try await alice.send(request: ["command": ["set_property", "pause", true], "request_id": 1])
            #expect(try await alice.nextMessage() == ["error": "success", "request_id": 1])
            #expect(try await alice.nextMessage() == ["event": "property-change", "id": 10, "name": "pause", "data": true])
            #expect(try await bob.nextMessage() == ["event": "property-change", "id": 20, "name": "pause", "data": true])

            // Interleaved requests each get their own replies.
            try await bob.send(request: ["command": ["get_property", "pause"], "request_id": 2])
            try await alice.send(request: ["command": ["get_property", "speed"], "request_id": 3])
            #expect(try await bob.nextMessage() == ["data": true, "error": "success", "request_id": 2])
            #expect(try await alice.nextMessage() == ["data": 1.0, "error": "success", "request_id": 3])
        }
    }

    @Test func oversizedLineDropsOnlyThatClient() async throws {
        try await withServer(maxLineLength: 64 * 1024) { server, path in
            let good = try SocketClient(path: path)
            let bad = try SocketClient(path: path)
            #expect(await eventually { await server.clientCount == 2 })

            // 70 KiB without a newline: the server must give up on this client before it ends.
            try await bad.send(#"{"command":["get_property","pause"],"junk":""# + String(repeating: "x", count: 70 * 1024))
            #expect(try await bad.waitUntilClosed())
            #expect(await eventually { await server.clientCount == 1 })

            try await good.send(request: ["command": ["get_property", "pause"], "request_id": 1])
            #expect(try await good.nextMessage() == ["data": false, "error": "success", "request_id": 1])

            // A long line within the limit is fine.
            let padding = String(repeating: "y", count: 60 * 1024)
            try await good.send(request: ["command": ["get_property", "pause"], "request_id": 2, "padding": .string(padding)])
            #expect(try await good.nextMessage()["request_id"] == 2)
        }
    }

    @Test func garbageIsAnsweredAndTheClientGoesOn() async throws {
        try await withServer { _, path in
            let client = try SocketClient(path: path)
            try await client.send("hello\n{\"command\":\n\u{1}\u{2}\u{3}\n\n\r\n")
            for _ in 0..<3 {
                #expect(try await client.nextMessage() == ["error": "invalid parameter", "request_id": 0])
            }
            // Invalid UTF-8 bytes are not a problem either.
            try await client.send("\u{FFFF}\u{0}\n")
            #expect(try await client.nextMessage()["error"] == "invalid parameter")
            try await client.send(#"{"command":["get_property","speed"],"request_id":5}"# + "\r\n")
            #expect(try await client.nextMessage() == ["data": 1.0, "error": "success", "request_id": 5])
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let target = FakeTarget(timePos: 0)
        try await withServer(target: target) { _, path in
            let client = try SocketClient(path: path)
            let count = 500
            var batch = ""
            for id in 1...count {
                batch += #"{"command":["seek",1],"request_id":\#(id)}"# + "\n"
            }
            try await client.send(batch)
            for id in 1...count {
                #expect(try await client.nextMessage()["request_id"] == .number(Double(id)))
            }
            #expect(await target.timePos == Double(count))
        }
    }

    @Test func repliesStillArriveAfterClientStopsSending() async throws {
        try await withServer { server, path in
            let client = try SocketClient(path: path)
            // What `echo '…' | socat - /tmp/tandem.sock` does.
            try await client.send(#"{"command":["get_property","pause"],"request_id":1}"# + "\n" + #"{"command":["get_property","speed"]}"#)
            client.shutdownSending()
            #expect(try await client.nextMessage() == ["data": false, "error": "success", "request_id": 1])
            #expect(try await client.nextMessage() == ["data": 1.0, "error": "success", "request_id": 0])  // unterminated last line
            #expect(try await client.waitUntilClosed())
            #expect(await eventually { await server.clientCount == 0 })
        }
    }

    @Test func stopClosesClientsAndRemovesTheSocket() async throws {
        let path = temporarySocketPath("ipc-test")
        let server = IPCServer(socketPath: path, target: FakeTarget(), logger: quietLogger)
        try await server.start()
        #expect(fileExists(path))
        let client = try SocketClient(path: path)
        try await client.send(request: ["command": ["get_property", "pause"]])
        _ = try await client.nextMessage()

        await server.stop()
        #expect(await !server.isListening)
        #expect(try await client.waitUntilClosed())
        #expect(!fileExists(path))
        #expect(throws: SocketClientError.self) { try SocketClient(path: path) }

        // It can start again.
        try await server.start()
        let again = try SocketClient(path: path)
        try await again.send(request: ["command": ["get_property", "pause"], "request_id": 1])
        #expect(try await again.nextMessage()["request_id"] == 1)
        await server.stop()
        await server.stop()  // harmless
    }

    @Test func startingTwiceFails() async throws {
        try await withServer { server, path in
            await #expect(throws: IPCServerError(path: path, reason: "the server is already running")) {
                try await server.start()
            }
        }
    }

    @Test func replacesAStaleSocketFile() async throws {
        let path = temporarySocketPath("ipc-test")
        let first = IPCServer(socketPath: path, target: FakeTarget(), logger: quietLogger)
        try await first.start()
        // A second server on the same path takes over, as mpv does with a leftover socket.
        let second = IPCServer(socketPath: path, target: FakeTarget(timePos: 99), logger: quietLogger)
        try await second.start()
        let client = try SocketClient(path: path)
        try await client.send(request: ["command": ["get_property", "time-pos"]])
        #expect(try await client.nextMessage()["data"] == 99.0)
        // The replaced server no longer receives clients but keeps running until stopped.
        #expect(await first.isListening)
        await second.stop()
        await first.stop()
        #expect(!fileExists(path))
    }

    @Test func missingDirectoryIsReported() async throws {
        let path = "/tmp/tandem-no-such-dir-\(getpid())/x.sock"
        let server = IPCServer(socketPath: path, target: FakeTarget(), logger: quietLogger)
        let error = await #expect(throws: IPCServerError.self) { try await server.start() }
        #expect(error?.path == path)
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("does not exist") == true)
        #expect(await !server.isListening)
    }

    @Test func unusablePathsAreReported() async throws {
        // A regular file where the socket should go.
        let filePath = temporarySocketPath("ipc-test")
        let file = fopen(filePath, "w")
        fclose(file)
        defer { unlink(filePath) }
        let blocked = await #expect(throws: IPCServerError.self) {
            try await IPCServer(socketPath: filePath, target: FakeTarget(), logger: quietLogger).start()
        }
        #expect(blocked?.description.contains(filePath) == true)
        #expect(blocked?.reason.contains("not a socket") == true)
        #expect(fileExists(filePath))  // not deleted

        // A "directory" that is a file.
        let underFile = await #expect(throws: IPCServerError.self) {
            try await IPCServer(socketPath: filePath + "/x.sock", target: FakeTarget(), logger: quietLogger).start()
        }
        #expect(underFile?.reason.contains("not a directory") == true)

        // Too long for sockaddr_un.
        let longPath = "/tmp/" + String(repeating: "l", count: 200) + ".sock"
        let long = await #expect(throws: IPCServerError.self) {
            try await IPCServer(socketPath: longPath, target: FakeTarget(), logger: quietLogger).start()
        }
        #expect(long?.description.contains(longPath) == true)
        #expect(long?.reason.contains("bytes") == true)

        let empty = await #expect(throws: IPCServerError.self) {
            try await IPCServer(socketPath: "", target: FakeTarget(), logger: quietLogger).start()
        }
        #expect(empty?.reason == "the path is empty")
    }

    @Test func unwritableDirectoryIsReported() async throws {
        // Nobody, not even root, can create files in /proc.
        let path = "/proc/tandem-\(getpid()).sock"
        let error = await #expect(throws: IPCServerError.self) {
            try await IPCServer(socketPath: path, target: FakeTarget(), logger: quietLogger).start()
        }
        #expect(error?.description.contains(path) == true)
        #expect(error?.reason.isEmpty == false)
    }

    @Test func droppingAListeningServerClosesIt() async throws {
        let path = temporarySocketPath("ipc-test")
        var server: IPCServer? = IPCServer(socketPath: path, target: FakeTarget(), logger: quietLogger)
        try await server?.start()
        let client = try SocketClient(path: path)
        server = nil
        #expect(try await client.waitUntilClosed())
        #expect(!fileExists(path))
    }
}

import Foundation
import PartyKit
import Synchronization
import Testing

/// A real party on loopback with the built `tandem`: a host serving its file and a guest with no
/// copy (so it streams the host's file with the media token), both with `--json`. Neither the key
/// nor the media token appears anywhere in what they print, except the host's link line.
@Suite struct KeyLeakTests {
    /// A long, distinctive key, so any trace of it (or of its token) is found.
    static let key = "leaky-key-Zq7x91mWb3Tt"

    @Test func aPartyPrintsTheKeyOnlyInTheHostsLink() async throws {
        let party = "leak-check-\(Int.random(in: 1000...9999))"
        let token = MediaToken.derive(key: Self.key, party: party)
        let host = try Spawned(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--party", party, "--key", Self.key,
                                "--script", "play@1,seek:2@2", "--duration", "12", TestAssets.path("party.mp4")])
        defer { host.stop() }
        let linkLine = try #require(await host.waitForLine(containing: "\"link\"", seconds: 30), "the host printed no link")
        let linkValue = try #require(JSONSerialization.jsonObject(with: Data(linkLine.utf8)) as? [String: Any])["link"] as? String
        let link = try #require(linkValue)
        #expect(link.contains(Self.key), "the host's link is the one place the key belongs")

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-media-\(party)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let guest = try Spawned(["join", "--headless", "--json", "--name", "Gus", "--media", empty.path, "--duration", "6", link])
        defer { guest.stop() }
        #expect(await guest.waitForExit(seconds: 60) == 0)
        #expect(await host.waitForExit(seconds: 60) == 0)

        let guestOutput = guest.output, hostOutput = host.output
        // The guest really streamed from the host (else the token was never used).
        #expect(guestOutput.contains("stream"), "the guest did not stream the party's copy:\n\(guestOutput)")
        #expect(guestOutput.contains("\"status\""))
        for (who, text) in [("host", hostOutput.replacingOccurrences(of: linkLine, with: "")), ("guest", guestOutput)] {
            #expect(!text.contains(Self.key), "\(who) printed the key:\n\(text)")
            #expect(!text.contains(token), "\(who) printed the media token:\n\(text)")
        }
        #expect(hostOutput.components(separatedBy: Self.key).count == 2, "the key appears once, in the link line")
    }
}

/// A `tandem` child process whose standard output and error are collected as they come.
final class Spawned: Sendable {
    private let process: Process
    private let collected = Mutex("")
    private let exited = Mutex<Int32?>(nil)

    init(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        let reader = pipe.fileHandleForReading
        try process.run()
        Thread.detachNewThread { [self] in
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            self.process.waitUntilExit()
            exited.withLock { $0 = self.process.terminationStatus }
        }
    }

    /// Everything printed so far (standard output and error interleaved).
    var output: String { collected.withLock { $0 } }

    /// The first complete line containing `text`, once printed; nil after `seconds` (a failure bound).
    func waitForLine(containing text: String, seconds: Double) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            if exited.withLock({ $0 }) != nil { break }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return output.split(separator: "\n").first(where: { $0.contains(text) }).map(String.init)
    }

    /// The exit status once the process ended and its output was read; nil after `seconds`.
    func waitForExit(seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let status = exited.withLock({ $0 }) { return status }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return nil
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

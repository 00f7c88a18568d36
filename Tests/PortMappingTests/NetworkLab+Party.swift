import Foundation
import Testing
import TestSupport

/// A party in the lab: the host in `home`, guests in `net`, as a user runs them.
extension NetworkLab {
    static let partyFile = Repository.asset("party.mp4")

    /// `tandem host party.mp4 --headless --json` in `home` (serving its own party on 0.0.0.0:7777),
    /// playing from its first second, with `extra` options.
    func host(_ extra: [String] = []) throws -> ChildProcess {
        try tandem(in: .home, as: "host", ["host", Self.partyFile, "--headless", "--json", "--party", "lab", "--key", "lab-key",
                                           "--name", "Hana", "--script", "play@1"] + extra)
    }

    /// The `n`th link (from 1) the host printed for `reach` (`internet` or `lan`).
    static func link(of host: ChildProcess, reach: String, number n: Int = 1) async throws -> String {
        let links = { host.standardOutput.split(separator: "\n").compactMap { line -> String? in
            guard let event = party(String(line)), event["reach"] == reach else { return nil }
            return event["link"]
        } }
        try await waitUntil("link \(n) for \(reach) from the host", within: 60) { links().count >= n || !host.isRunning }
        let found = links()
        guard found.count >= n else { throw LabError(description: "the host ended before link \(n) for \(reach):\n\(host.standardOutput)\n\(host.standardError)") }
        return found[n - 1]
    }

    /// The fields of a `party` event line, nil for any other line.
    static func party(_ line: String) -> [String: String]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              object["event"] as? String == "party" else { return nil }
        return object.compactMapValues { $0 as? String }
    }

    /// The `info` lines the host printed so far (what port mapping said).
    static func infoLines(of child: ChildProcess) -> [String] {
        child.standardOutput.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "info" else { return nil }
            return object["text"] as? String
        }
    }

    /// The first `info` line the host printed that contains `text`.
    static func info(of host: ChildProcess, containing text: String) async throws -> String {
        let line = try await host.line(within: 60) { $0.contains("\"info\"") && $0.contains(text) }
        return infoLines(of: host).first { $0.contains(text) } ?? line
    }

    /// A guest in `net` joins with `link` and nothing else, with no copy of the file (so it streams
    /// the host's through the router), until it is in sync with the party; then it leaves (Ctrl-C).
    /// Its whole output.
    @discardableResult
    func guestJoins(_ link: String, name: String = "Gus") async throws -> String {
        let guest = try tandem(in: .net, as: name, ["join", link, "--headless", "--json", "--name", name, "--media", try emptyMediaFolder()])
        do {
            _ = try await guest.line(within: 90) { $0.contains("\"event\":\"status\"") && $0.contains("\"synced\":true") }
        } catch {
            guest.kill()
            throw LabError(description: "the guest did not get in sync: \(error)\n\(guest.standardOutput)\n\(guest.standardError)")
        }
        guest.interrupt()
        let ended = try await guest.exit(within: 60)
        #expect(ended == .exited(0), "the guest's leave: \(guest.standardError)")
        let output = guest.standardOutput
        #expect(output.contains("streaming it from the party"), "the guest streams the host's file:\n\(output)")
        return output
    }

    /// Waits until the gateway has no mapping left (its rules, and its line saying the mapping went).
    func expectNothingMapped(_ gateway: ChildProcess, deleted method: String) async throws {
        _ = try await gateway.line(within: 60) { $0.hasPrefix("delete \(method) ") }
        #expect(try await mappingRules() == [], "a DNAT rule outlived the party")
    }
}

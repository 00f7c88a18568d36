import Foundation
import Testing
import TestSupport

/// A home network behind a real NAT router for one test, in network namespaces that
/// scripts/netns.sh makes: `home` (the host), `router` (nftables masquerade, and the tests'
/// gateway from scripts/test-gateway/gateway.py when the test starts one), `net` (the internet side, the
/// guest). Names are unique to the lab, so tests run at the same time never meet; ``with(wan:_:)``
/// removes them, whatever the test did.
struct NetworkLab: Sendable {
    enum Namespace: String, Sendable { case home, router, net }

    /// The host's address on the LAN, and the router's on both sides (scripts/netns.sh).
    static let homeAddress = "192.168.77.10"
    static let routerLAN = "192.168.77.1"

    let id: String
    /// The router's WAN /24 (`203.0.113`, a documentation range; `100.64.0`: carrier-grade NAT).
    let wan: String
    let folder: TemporaryFolder

    var routerWAN: String { "\(wan).1" }

    static let script = Repository.root.appendingPathComponent("scripts/netns.sh").path
    static let gatewayScript = Repository.root.appendingPathComponent("scripts/test-gateway/gateway.py").path

    // MARK: Whether this machine can

    /// Why this machine cannot make the lab (not root, no `ip netns`, no nftables, no python3), or
    /// nil when it can: what `scripts/netns.sh check` says. Asked once, before any test runs.
    static let unavailableReason: String? = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "check"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return "cannot run scripts/netns.sh: \(error)" }
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : said.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    static var available: Bool { unavailableReason == nil }
    static var skipReason: Comment {
        Comment(rawValue: "no network namespaces on this machine (\(unavailableReason ?? "")): the real-NAT tests need root, ip, nft and python3")
    }

    // MARK: Life

    /// Makes the lab, runs `body` in it, removes it (and whatever still runs in it).
    static func with<T: Sendable>(wan: String = "203.0.113", _ body: (NetworkLab) async throws -> T) async throws -> T {
        let id = String(UInt32.random(in: .min ... .max), radix: 16)
        let lab = NetworkLab(id: id, wan: wan, folder: try TemporaryFolder("netlab"))
        defer { lab.folder.remove() }
        let up = try await ChildProcess.run("bash", [script, "up", id, wan])
        guard up.status == 0 else {
            _ = try? await ChildProcess.run("bash", [script, "down", id])
            throw LabError(description: "scripts/netns.sh up failed: \(up.standardError)")
        }
        do {
            let result = try await body(lab)
            try await lab.down()
            return result
        } catch {
            try? await lab.down()
            throw error
        }
    }

    private func down() async throws {
        let down = try await ChildProcess.run("bash", [Self.script, "down", id])
        guard down.status == 0 else { throw LabError(description: "scripts/netns.sh down failed: \(down.standardError)") }
    }

    struct LabError: Error, CustomStringConvertible {
        let description: String
    }

    func name(_ namespace: Namespace) -> String { "tdm-\(id)-\(namespace.rawValue)" }

    // MARK: What runs in it

    /// `command` in `namespace` (`ip netns exec`, which execs it: the child is the command itself).
    func start(in namespace: Namespace, _ command: [String], adding: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess("ip", ["netns", "exec", name(namespace)] + command, adding: adding)
    }

    /// The built `tandem` in `namespace`, with configuration and state in the lab's folder (`who`:
    /// whose; the host's and the guest's differ).
    func tandem(in namespace: Namespace, as who: String, _ arguments: [String]) throws -> ChildProcess {
        let xdg = ["XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache"]
        return try start(in: namespace, [try Repository.tandem()] + arguments,
                         adding: xdg.mapValues { folder.path("\(who)/\($0)") })
    }

    /// The tests' gateway in the router, started with `options` (scripts/test-gateway/gateway.py), once it
    /// listens.
    func gateway(_ options: [String], external: String? = nil) async throws -> ChildProcess {
        let gateway = try start(in: .router, ["python3", "-B", Self.gatewayScript, "--lan", Self.routerLAN,
                                              "--external", external ?? routerWAN] + options)
        _ = try await gateway.line(within: 60) { $0 == "ready" }
        return gateway
    }

    /// A port forwarded by hand on the router (`--public-address` cases).
    func forward(external: Int, to port: Int) async throws {
        let made = try await ChildProcess.run("bash", [Self.script, "forward", id, "\(external)", "\(port)"])
        guard made.status == 0 else { throw LabError(description: "scripts/netns.sh forward failed: \(made.standardError)") }
    }

    /// The router drops PCP, NAT-PMP and SSDP without a word: every wait runs out.
    func silence() async throws {
        let made = try await ChildProcess.run("bash", [Self.script, "silence", id])
        guard made.status == 0 else { throw LabError(description: "scripts/netns.sh silence failed: \(made.standardError)") }
    }

    /// The DNAT rules the gateway has installed now (`nft list chain`), one a line.
    func mappingRules() async throws -> [String] {
        let listed = try await ChildProcess.run("ip", ["netns", "exec", name(.router), "nft", "list", "chain", "ip", "testgw", "mappings"])
        return listed.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("dnat") }
    }

    /// An empty folder for a guest's `--media`: it has no copy, so it streams the party's.
    func emptyMediaFolder() throws -> String {
        let path = folder.path("empty-media")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

import NIOCore
import NIOPosix
import Synchronization
import TandemBase

/// Whether an address reaches this machine's server: the "(checked)" of "reachable from the internet
/// (checked)". From inside the LAN a connection to the router's external address comes back in only
/// where the router hairpins; elsewhere it cannot be checked from here.
public enum ReachabilityCheck {
    /// How long a check may take, in seconds: a hairpinned connection crosses the LAN twice, in
    /// milliseconds; a router that does not hairpin often drops it silently, and the links must not
    /// wait longer for that.
    public static let bound = 1.5

    /// A TCP connection to `address` opens (then closes at once): the default check.
    public static func connects(to address: HostPort) async -> Bool {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Int64(bound * 1000)))
        do {
            let channel = try await bootstrap.connect(host: address.host, port: address.port).get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// `check(address)`, false if it has not answered within ``bound`` seconds (a check still under
    /// way then is left to end by itself: it holds nothing).
    static func bounded(_ address: HostPort, _ check: @escaping @Sendable (HostPort) async -> Bool) async -> Bool {
        let waiting = Mutex<CheckedContinuation<Bool, Never>?>(nil)
        let finish: @Sendable (Bool) -> Void = { ok in waiting.withLock { $0.take() }?.resume(returning: ok) }
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            Task { finish(await check(address)) }
            Task {
                try? await Task.sleep(for: .seconds(bound))
                finish(false)
            }
        }
    }
}

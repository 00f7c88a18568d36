import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization
import WebSocketTLS
import WebSocketTransport

/// Learns the fingerprint of a party server's certificate with one TLS handshake (accepting any
/// certificate, sending nothing), for trust on first use: `tandem host --server` then pins it.
public enum ServerProbe {
    /// Seconds allowed for the connection and the handshake.
    static let timeout: Int64 = 10

    /// The SHA-256 fingerprint of the certificate `host:port` shows.
    /// - Throws: a sentence naming `host:port` (refused, not TLS, timed out).
    public static func fingerprint(host: String, port: Int) async throws -> String {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .noHostnameVerification
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: configuration) } catch { throw SecurityError.configuration("\(error)") }
        let shown = ShownFingerprint()
        let tls = WebSocketClientTLS(context: context, host: host) { certificates, promise in
            let fingerprint = certificates.first.flatMap { try? CertificateFingerprint.of($0) }
            shown.value.withLock { $0 = fingerprint }
            promise.succeed(fingerprint == nil ? .failed : .certificateVerified)
        }
        try await handshake(host: host, port: port, tls: tls)
        guard let fingerprint = shown.value.withLock({ $0 }) else {
            throw SecurityError.probe("\(address) showed no certificate")
        }
        return fingerprint
    }

    /// Whether `host:port` shows the certificate of `fingerprint`: a server's check that an address
    /// (its router's external one) reaches that server itself, not merely something listening.
    public static func shows(fingerprint: String, host: String, port: Int) async -> Bool {
        (try? await self.fingerprint(host: host, port: port)) == fingerprint
    }

    /// Whether `host:port` shows a certificate that chains to the system's trust store (or `extraRoots`)
    /// and names `host`: then members verify it as usual and links carry no fingerprint.
    public static func verifies(host: String, port: Int, extraRoots: [String] = []) async -> Bool {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        configuration.additionalTrustRoots = extraRoots.map { .file($0) }
        guard let context = try? NIOSSLContext(configuration: configuration) else { return false }
        return (try? await handshake(host: host, port: port, tls: WebSocketClientTLS(context: context, host: host))) != nil
    }

    /// One TLS handshake with `host:port`, then a close.
    static func handshake(host: String, port: Int, tls: WebSocketClientTLS) async throws {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let done = eventLoop.makePromise(of: Void.self)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(tls.makeHandler())
                    try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(done: done))
                }
            }
        let channel: any Channel
        do { channel = try await bootstrap.connect(host: host, port: port).get() } catch {
            let reason = WebSocketClient.describeConnectFailure(error, address: address, timeout: Double(timeout))
            let failure = SecurityError.probe("cannot learn the certificate of \(address): \(reason)")
            // No channel, so no handshake will complete it: an unfulfilled promise is a leak NIO traps on.
            done.fail(failure)
            throw failure
        }
        let deadline = eventLoop.scheduleTask(in: .seconds(timeout)) {
            done.fail(SecurityError.probe("\(address) did not complete a TLS handshake within \(timeout) s"))
        }
        defer { deadline.cancel() }
        do {
            try await done.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error
        }
        try? await channel.close()
    }
}

/// The fingerprint a probed server showed (set on its event loop, read after the handshake).
private final class ShownFingerprint: Sendable {
    let value = Mutex<String?>(nil)
}

/// Completes `done` when the TLS handshake completes (then the probe closes), fails it on any error or
/// hang-up before.
private final class HandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let done: EventLoopPromise<Void>
    private var address = ""

    init(done: EventLoopPromise<Void>) { self.done = done }

    func channelActive(context: ChannelHandlerContext) {
        address = context.channel.remoteAddress.map { "\($0)" } ?? "the server"
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { done.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let text = "\(error)"
        let reason = text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST")
            ? "it does not speak TLS (a server run with --insecure?)" : "TLS failed: \(text)"
        done.fail(SecurityError.probe("cannot learn the certificate of \(address): \(reason)"))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(SecurityError.probe("\(address) closed the connection during the TLS handshake"))
        context.fireChannelInactive()
    }
}

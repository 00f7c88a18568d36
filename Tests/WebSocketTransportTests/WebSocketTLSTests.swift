import Foundation
import NIOSSL
@testable import WebSocketTransport
import Testing
import TestSupportTLS
import TestSupport
import WebSocketTLS

/// wss:// on loopback: a chain signed by a CA made here is accepted for the name it carries and refused
/// for another; plain and TLS peers that meet fail clearly instead of hanging.
@Suite("WebSocket over TLS")
struct WebSocketTLSTests {
    static func echoServer(tls: NIOSSLContext?) async throws -> (WebSocketServer, Int) {
        let server = WebSocketServer(host: "127.0.0.1", port: 0, path: "/", logger: quiet,
                                     tls: tls.map { WebSocketServerTLS(context: $0) })
        let port = try await server.start { connection in
            Task { for await message in connection.inbound { connection.send(message.text) } }
        }
        return (server, port)
    }

    static func connect(port: Int, host: String = "localhost", tls: WebSocketClientTLSBox?) async throws -> WebSocketConnection {
        try await within {
            try await WebSocketClient.connect(host: host, port: port, path: "/", connectTimeout: hangGuardSeconds, logger: quiet,
                                              tls: tls.map { WebSocketClientTLS(context: $0.context, host: $0.host) })
        }
    }

    @Test func chainFromATrustedCAIsAcceptedForItsName() async throws {
        let ca = try TestCertificateAuthority()
        let (server, port) = try await Self.echoServer(tls: try ca.serverContext(dnsNames: ["localhost"]))
        let client = try await Self.connect(port: port, tls: try ca.clientTLS(host: "localhost"))
        client.send("over tls")
        #expect(try await next(client.inbound) == "over tls")
        client.close(reason: "done")
        await server.stop()
    }

    @Test func chainForAnotherNameIsRefused() async throws {
        let ca = try TestCertificateAuthority()
        let (server, port) = try await Self.echoServer(tls: try ca.serverContext(dnsNames: ["party.example"]))
        await #expect {
            _ = try await Self.connect(port: port, tls: try ca.clientTLS(host: "localhost"))
        } throws: { error in
            guard let error = error as? WebSocketTransportError else { return false }
            return error.kind == .tlsFailed && error.message.contains("localhost:\(port)")
        }
        await server.stop()
    }

    @Test func chainFromAnUnknownCAIsRefused() async throws {
        let ca = try TestCertificateAuthority(), other = try TestCertificateAuthority(commonName: "Someone else")
        let (server, port) = try await Self.echoServer(tls: try ca.serverContext(dnsNames: ["localhost"]))
        await #expect {
            _ = try await Self.connect(port: port, tls: try other.clientTLS(host: "localhost"))
        } throws: { error in
            (error as? WebSocketTransportError)?.message.contains("not trusted") == true
        }
        await server.stop()
    }

    @Test func tlsClientAgainstAPlainServerFailsClearly() async throws {
        let ca = try TestCertificateAuthority()
        let (server, port) = try await Self.echoServer(tls: nil)
        await #expect {
            _ = try await Self.connect(port: port, tls: try ca.clientTLS(host: "localhost"))
        } throws: { error in
            (error as? WebSocketTransportError)?.message == "localhost:\(port) does not speak TLS (a plain ws:// server?)"
        }
        await server.stop()
    }

    @Test func plainClientAgainstATLSServerFailsInsteadOfHanging() async throws {
        let ca = try TestCertificateAuthority()
        let (server, port) = try await Self.echoServer(tls: try ca.serverContext(dnsNames: ["localhost"]))
        await #expect(throws: WebSocketTransportError.self) {
            _ = try await Self.connect(port: port, host: "127.0.0.1", tls: nil)
        }
        await server.stop()
    }
}

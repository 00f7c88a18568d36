import FuzzDriver
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import WebSocketTransport

/// The party server's HTTP side: the bytes of one connection (an upgrade request and WebSocket
/// frames after it, or plain HTTP requests for the responder) fed in pieces to the server's
/// pipeline on an `EmbeddedChannel`; timers run out at the end. Nothing may trap or leak.
@main enum FuzzHTTPUpgrade {
    static func main() { FuzzDriver.main(fuzzOneInput) }

    /// Bytes per write into the channel (the first input byte picks 1…64, so requests and frames
    /// arrive split at every place a socket could split them).
    static let maxPiece = 64

}

/// Answers every request 200 with a short body and keeps the connection, like the media handler.
struct EchoResponder: HTTPResponder {
    func makeHandler(remoteAddress: SocketAddress?) -> any ChannelHandler & RemovableChannelHandler { EchoHandler() }
}

final class EchoHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let body = context.channel.allocator.buffer(string: "ok\n")
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "3"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// One input (libFuzzer's entry point; the replaying `main` calls it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](fuzzInput: data, count: count)
    guard let control = bytes.first else { return 0 }
    let piece = Int(control) % FuzzHTTPUpgrade.maxPiece + 1
    let withResponder = control & 0x80 != 0
    let channel = EmbeddedChannel()
    let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }
    do {
        try ServerPipeline.install(
            on: channel, path: "/party", limits: WebSocketLimits(maxMessageBytes: 64 * 1024),
            responder: withResponder ? EchoResponder() : nil, tls: nil, logger: logger,
            upgraded: { connection in connection.send("welcome") })
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        var rest = bytes.dropFirst()
        while !rest.isEmpty, channel.isActive {
            let chunk = rest.prefix(piece)
            rest = rest.dropFirst(chunk.count)
            try channel.writeInbound(channel.allocator.buffer(bytes: chunk))
            while try channel.readOutbound(as: ByteBuffer.self) != nil {}
        }
    } catch {
        // Refused input closes the channel with an error: that is an answer, not a finding.
    }
    channel.embeddedEventLoop.advanceTime(by: .seconds(120))
    _ = try? channel.finish(acceptAlreadyClosed: true)
    return 0
}

import NIOCore
import NIOHTTP1
import PartyWeb

extension MediaRequestHandler {
    /// Answers a request for the browser guest's page or one of its files, from the binary.
    func serve(_ route: WebRoute, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let asset: WebAsset
        switch route {
        case .page: asset = .page
        case .asset(let named): asset = named
        }
        let bytes = asset.bytes
        var headers = HTTPHeaders(WebHeaders.page(contentType: asset.contentType))
        headers.add(name: "Content-Length", value: "\(bytes.count)")
        headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        if head.method == .GET {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: bytes)))), promise: nil)
        }
        finish(keepAlive: head.isKeepAlive, context: context) {}
    }
}

/// The `Content-Type` of a party's media file, from its name: a browser's `<video>` and MSE want
/// the real one; anything unknown is `application/octet-stream`, as before.
enum MediaContentType {
    static func of(path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "mp4", "m4v": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "webm": return "video/webm"
        case "mkv": return "video/x-matroska"
        case "mka": return "audio/x-matroska"
        case "mov": return "video/quicktime"
        case "ogg", "ogv": return "video/ogg"
        case "opus": return "audio/ogg"
        case "mp3": return "audio/mpeg"
        case "flac": return "audio/flac"
        case "wav": return "audio/wav"
        case "ts": return "video/mp2t"
        default: return "application/octet-stream"
        }
    }
}

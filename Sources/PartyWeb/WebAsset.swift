/// One file of the browser guest's page, embedded in the binary (SwiftPM's `embedInCode`: an
/// installed, statically linked `tandem` has no resource bundle beside it).
public struct WebAsset: Equatable, Sendable {
    /// The file's name under `/web/`.
    public let name: String
    /// Its `Content-Type`.
    public let contentType: String

    /// The page's files by name; anything else under `/web/` is a 404.
    public static let all: [WebAsset] = [
        WebAsset(name: "page.html", contentType: "text/html; charset=utf-8"),
        WebAsset(name: "style.css", contentType: "text/css; charset=utf-8"),
    ] + scripts.map { WebAsset(name: $0, contentType: "text/javascript; charset=utf-8") }

    /// The page's ES modules.
    static let scripts = ["main.js", "clock.js", "connection.js", "sync.js", "correction.js", "media.js", "mse.js", "ui.js", "controls.js", "hmac.js"]

    /// The page itself, served at `/p/ID`.
    public static let page = WebAsset(name: "page.html", contentType: "text/html; charset=utf-8")

    init(name: String, contentType: String) {
        self.name = name
        self.contentType = contentType
    }

    /// The asset called `name`, if the page has one.
    public init?(name: String) {
        guard let asset = Self.all.first(where: { $0.name == name }) else { return nil }
        self = asset
    }

    /// The file's bytes.
    public var bytes: [UInt8] {
        switch name {
        case "page.html": PackageResources.page_html
        case "style.css": PackageResources.style_css
        case "main.js": PackageResources.main_js
        case "clock.js": PackageResources.clock_js
        case "connection.js": PackageResources.connection_js
        case "sync.js": PackageResources.sync_js
        case "correction.js": PackageResources.correction_js
        case "media.js": PackageResources.media_js
        case "mse.js": PackageResources.mse_js
        case "ui.js": PackageResources.ui_js
        case "controls.js": PackageResources.controls_js
        case "hmac.js": PackageResources.hmac_js
        default: []
        }
    }
}

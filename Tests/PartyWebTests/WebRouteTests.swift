import PartyKit
import PartyWeb
import Testing

@Suite struct WebRouteTests {
    @Test func pagesAndAssetsAreRoutedAndNothingElse() {
        #expect(WebRoute(target: "/p/brave-otter-42") == .page(party: "brave-otter-42"))
        #expect(WebRoute(target: "/p/brave-otter-42/") == .page(party: "brave-otter-42"))
        #expect(WebRoute(target: "/p/a_b.c?fbclid=1") == .page(party: "a_b.c"))
        #expect(WebRoute(target: "/web/main.js") == .asset(WebAsset(name: "main.js")!))
        for target in ["/p/", "/p", "/p/..", "/p/.", "/p/a/b", "/p/a%20b", "/p/" + String(repeating: "a", count: 129), "p/a",
                       "/web/", "/web/nope.js", "/web/../web/main.js", "/web/main.js/x", "/party/a/media/0", "/", ""] {
            #expect(WebRoute(target: target) == nil, "\(target)")
        }
    }

    @Test func everyAssetIsEmbeddedAndEveryModuleTheScriptsImportIsServed() {
        for asset in WebAsset.all {
            #expect(asset.bytes.count > 100, "\(asset.name) is embedded")
        }
        let names = Set(WebAsset.all.map(\.name))
        for asset in WebAsset.all where asset.name.hasSuffix(".js") {
            let text = String(decoding: asset.bytes, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                guard let from = line.range(of: "from \"./") else { continue }
                let module = line[from.upperBound...].prefix { $0 != "\"" }
                #expect(names.contains(String(module)), "\(asset.name) imports \(module), which /web/ does not serve")
            }
        }
        let page = String(decoding: WebAsset.page.bytes, as: UTF8.self)
        #expect(page.contains("/web/main.js") && page.contains("/web/style.css"))
    }

    /// The page says hello in the protocol version the server speaks (a bump must reach both).
    @Test func thePageSpeaksTheServersProtocolVersion() throws {
        let connection = try #require(WebAsset(name: "connection.js"))
        let text = String(decoding: connection.bytes, as: UTF8.self)
        #expect(text.contains("export const PROTOCOL_VERSION = \(PartyProtocol.version);"))
    }

    @Test func theBrowserLinkKeepsTheKeyInTheFragment() {
        let tls = PartyLink(host: "203.0.113.7", port: 7000, party: "p1", key: "s3cret", fingerprint: String(repeating: "A", count: 43))
        #expect(tls.browserLink == "https://203.0.113.7:7000/p/p1#key=s3cret&fp=" + String(repeating: "A", count: 43))
        let plain = PartyLink(host: "::1", port: 80, party: "p1", key: "k", insecure: true)
        #expect(plain.browserLink == "http://[::1]:80/p/p1#key=k")
        #expect(!tls.browserLink.split(separator: "#")[0].contains("s3cret"))
    }
}

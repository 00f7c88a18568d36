import TandemBase
import Testing

/// The one host:port type: option values, node addresses, the hosts of network URLs.
@Suite struct HostPortTests {
    @Test func hostAndPortAreReadFromTheURL() {
        #expect(HostPort(url: "http://example.org/a.mp4") == HostPort(host: "example.org", port: 80))
        #expect(HostPort(url: "https://example.org/a.mp4") == HostPort(host: "example.org", port: 443))
        #expect(HostPort(url: "http://user:pw@10.0.0.2:8080/x?y=1") == HostPort(host: "10.0.0.2", port: 8080))
        #expect(HostPort(url: "http://[::1]:9000/index.m3u8")?.description == "[::1]:9000")
        #expect(HostPort(url: "http://127.0.0.1:7777")?.description == "127.0.0.1:7777")
        #expect(HostPort(url: "/media/a.mp4") == nil)
        #expect(HostPort(url: "rtmp://h/live") == nil)
    }

    @Test func optionValuesParseAndPrintBack() {
        #expect(HostPort(parsing: "0.0.0.0:7777") == HostPort(host: "0.0.0.0", port: 7777))
        #expect(HostPort(parsing: "[::1]:0") == HostPort(host: "::1", port: 0))
        #expect(HostPort(parsing: "[::1]:0")?.description == "[::1]:0")
        #expect(HostPort(parsing: "example.org:443")?.bracketedHost == "example.org")
        for bad in ["", "7777", ":7777", "host:", "host:65536", "host:-1", "[]:80", "host:port"] {
            #expect(HostPort(parsing: bad) == nil, "\(bad)")
        }
        #expect(HostPort(parsing: "host:0", ports: 1...65535) == nil)
    }
}

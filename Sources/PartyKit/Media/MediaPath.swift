/// Where a party serves the bytes of its items: `/party/ID/media/N`, on the port of its WebSocket.
public enum MediaPath {
    /// The path of item `index` of `party`.
    public static func path(party: String, item index: Int) -> String { "/party/\(party)/media/\(index)" }

    /// The party and item of a request target, or nil if it is not exactly a media path: no
    /// query, no dot segments, no encoded characters, a plain decimal index below a million.
    public static func parse(_ target: String) -> (party: String, item: Int)? {
        guard target.utf8.count <= 512, target.hasPrefix("/") else { return nil }
        let parts = target.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "party", parts[2] == "media" else { return nil }
        let party = parts[1], index = parts[3]
        guard !party.isEmpty, party.allSatisfy(Self.isPartyCharacter), party != ".", party != ".." else { return nil }
        guard (1...6).contains(index.count), index.allSatisfy({ $0.isASCII && $0.isNumber }),
              index == "0" || !index.hasPrefix("0"), let n = Int(index) else { return nil }
        return (String(party), n)
    }

    /// Party IDs are plain names: letters, digits, '-', '_', '.'.
    static func isPartyCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".")
    }
}

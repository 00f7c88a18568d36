/// What a request for the browser guest's page asks for: the page of a party (`/p/ID`) or one of
/// the page's files (`/web/NAME`). Pure, so it is fuzzed and tested without a server.
///
/// The page is the same for every party (it reads the ID from its own path and the key from the
/// link's fragment, which never reaches the server), so `/p/ID` is served for any well-formed ID:
/// whether a party exists is said by the party's WebSocket, to holders of its key, as for native
/// members — no HTTP answer tells parties apart.
public enum WebRoute: Equatable, Sendable {
    /// `/p/ID` (or `/p/ID/`): the page, for the party `ID`.
    case page(party: String)
    /// `/web/NAME`: one of the page's files.
    case asset(WebAsset)

    /// The route of a request target, or nil when it is none of the page's paths: a query is
    /// ignored (a link shared through a messenger may gain one); dot segments, encoded characters
    /// and unknown names are not routes.
    public init?(target: String) {
        guard target.utf8.count <= 512, target.hasPrefix("/") else { return nil }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        var parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[2].isEmpty { parts.removeLast() }
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "p":
            let party = parts[1]
            guard !party.isEmpty, party.utf8.count <= 128, party.allSatisfy(Self.isPartyCharacter),
                  party != ".", party != ".." else { return nil }
            self = .page(party: String(party))
        case "web":
            guard let asset = WebAsset(name: String(parts[1])) else { return nil }
            self = .asset(asset)
        default:
            return nil
        }
    }

    /// Party IDs are plain names: letters, digits, '-', '_', '.' (as in the media path).
    static func isPartyCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".")
    }
}

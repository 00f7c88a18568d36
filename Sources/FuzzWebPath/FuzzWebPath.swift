import FuzzDriver
import PartyKit
import PartyWeb

/// The party port's plain-HTTP paths besides byte ranges: the browser page's (`WebRoute`), the media's
/// (`MediaPath`) and the remux's (`WebMediaPath`). Any request target gets at most one meaning, and a
/// parsed one is exactly what the target said: a party ID of plain name characters, a known asset, a
/// path that builds back to the target.
@main enum FuzzWebPath {
    static func main() { FuzzDriver.main(fuzzOneInput) }
}

/// One input (libFuzzer's entry point; the replaying `main` calls it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let target = String(decoding: [UInt8](fuzzInput: data, count: count), as: UTF8.self)
    let route = WebRoute(target: target)
    let media = MediaPath.parse(target)
    let web = WebMediaPath.parse(target)
    precondition([route != nil, media != nil, web != nil].filter { $0 }.count <= 1, "\(target.debugDescription) has two meanings")
    let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    switch route {
    case .page(let party)?:
        precondition(!party.isEmpty && party.allSatisfy(nameCharacters.contains) && party != "." && party != "..",
                     "page of \(party.debugDescription) from \(target.debugDescription)")
    case .asset(let asset)?:
        precondition(WebAsset.all.contains(asset), "asset \(asset.name) from \(target.debugDescription)")
    case nil:
        break
    }
    if let (party, item) = media {
        precondition(MediaPath.path(party: party, item: item) == target, "media path \(target.debugDescription)")
    }
    if let (party, item, request) = web {
        precondition(WebMediaPath.path(party: party, item: item, request) == target, "remux path \(target.debugDescription)")
    }
    return 0
}

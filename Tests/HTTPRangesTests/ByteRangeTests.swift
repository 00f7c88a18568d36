import HTTPRanges
import PartyKit
import Testing

@Suite struct ByteRangeTests {
    @Test func singleRangesResolveAsRFC9110Says() {
        #expect(ByteRange.resolve(nil, size: 100) == .whole)
        #expect(ByteRange.resolve("bytes=0-9", size: 100) == .partial(first: 0, last: 9))
        #expect(ByteRange.resolve("bytes=90-", size: 100) == .partial(first: 90, last: 99))
        #expect(ByteRange.resolve("bytes=90-500", size: 100) == .partial(first: 90, last: 99))
        #expect(ByteRange.resolve("bytes=-10", size: 100) == .partial(first: 90, last: 99))
        #expect(ByteRange.resolve("bytes=-500", size: 100) == .partial(first: 0, last: 99))
        #expect(ByteRange.resolve(" bytes=5-6 ", size: 100) == .partial(first: 5, last: 6))
    }

    @Test(arguments: ["bytes=100-", "bytes=100-200", "bytes=5-4", "bytes=-0", "bytes=0-1,3-4", "bits=0-1", "bytes=", "bytes=-",
                      "bytes=a-b", "bytes=+1-2", "bytes=0x10-", "bytes=99999999999999999999-", "bytes= 1 - 2 3",
                      String(repeating: "bytes=0-1", count: 20)])
    func anythingElseIsUnsatisfiable(_ header: String) {
        #expect(ByteRange.resolve(header, size: 100) == .unsatisfiable)
    }

    @Test func randomHeadersNeverCrashTheParser() {
        var rng = SplitMix64(seed: 3)
        let alphabet = Array("bytes=-0123456789, \t".utf8)
        for _ in 0..<10_000 {
            let bytes = (0..<Int.random(in: 0..<30, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            switch ByteRange.resolve(String(decoding: bytes, as: UTF8.self), size: 1000) {
            case .partial(let first, let last): #expect(0 <= first && first <= last && last < 1000)
            case .whole, .unsatisfiable: break
            }
        }
    }
}

import FuzzDriver
import HTTPRanges

/// The media `Range` header parser: any header value and resource size give an answer within
/// the resource, and a parsed range is one the header really said.
@main enum FuzzByteRange {
    static func main() { FuzzDriver.main(fuzzOneInput) }
}

/// One input (libFuzzer's entry point; the replaying `main` calls it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](fuzzInput: data, count: count)
    // The first 8 bytes (when there are 8) pick the size; the rest is the header value.
    var size: Int64 = 1000
    var header = bytes[...]
    if bytes.count >= 8 {
        size = Int64(bytes[..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 1)
        header = bytes[8...]
    }
    let text = String(decoding: header, as: UTF8.self)
    if let range = ByteRange.parse(text) {
        switch range {
        case .from(let first, let last):
            precondition(first >= 0 && (last ?? first) >= first, "parsed \(range) from \(text.debugDescription)")
        case .suffix(let count):
            precondition(count > 0, "parsed \(range) from \(text.debugDescription)")
        }
    }
    for size in [size, 0, 1] {
        switch ByteRange.resolve(text, size: size) {
        case .whole, .unsatisfiable: break
        case .partial(let first, let last):
            precondition(0 <= first && first <= last && last < size,
                         "answered \(first)-\(last) of \(size) for \(text.debugDescription)")
        }
    }
    return 0
}

import CFFmpeg

/// MD5 of a byte buffer as lowercase hex, through libavutil (what ffmpeg's framemd5 uses).
public func md5Hex(_ bytes: UnsafeRawBufferPointer) -> String {
    var digest = [UInt8](repeating: 0, count: 16)
    av_md5_sum(&digest, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(32)
    for b in digest {
        out.append(hex[Int(b >> 4)])
        out.append(hex[Int(b & 0xf)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// RFC 6381 `codecs` parameters for the fragmented MP4's MIME type, which the page hands to
/// `MediaSource.isTypeSupported` and `addSourceBuffer`. Pure: built from what FFmpeg's codec
/// parameters hold (the `avcC` record, profile, level, bit depth).
public enum CodecString {
    /// `avc1.PPCCLL`: profile_idc, the constraint flags and level_idc, as hex — from the `avcC`
    /// record (ISO 14496-15) or an Annex B sequence parameter set in `extradata`; else from
    /// FFmpeg's `profile` and `level` (constraint flags unknown: 00).
    public static func avc1(extradata: [UInt8], profile: Int, level: Int) -> String {
        if let sps = spsTriple(extradata) { return "avc1." + hex(sps.0) + hex(sps.1) + hex(sps.2) }
        // FFmpeg's H.264 profile carries constraint bits above the profile_idc (FF_PROFILE_H264_CONSTRAINED…).
        let profileIDC = profile > 0 ? UInt8(profile & 0xff) : 100
        let levelIDC = level > 0 ? UInt8(min(level, 255)) : 40
        return "avc1." + hex(profileIDC) + "00" + hex(levelIDC)
    }

    /// `vp09.PP.LL.DD`: profile, level (×10, e.g. 41 for 4.1) and bit depth. FFmpeg rarely knows the
    /// level of a VP9 stream; 4.1 (1080p at 60 fps) is then claimed, which every decoder that
    /// plays 1080p accepts.
    public static func vp09(profile: Int, level: Int, bitDepth: Int) -> String {
        let level = level > 0 ? level : 41
        return "vp09." + twoDigits(max(profile, 0)) + "." + twoDigits(level) + "." + twoDigits(bitDepth)
    }

    /// `av01.P.LLT.DD`: profile, seq_level_idx with the main tier, bit depth. An unknown level
    /// claims 8 (level 4.0: 1080p at 30 fps).
    public static func av01(profile: Int, level: Int, bitDepth: Int) -> String {
        "av01.\(max(profile, 0))." + twoDigits(level >= 0 ? level : 8) + "M." + twoDigits(bitDepth)
    }

    /// `mp4a.40.N`: MPEG-4 audio with object type N — FFmpeg's AAC profile plus one (LC: 2,
    /// HE-AAC: 5, HE-AAC v2: 29); LC when unknown.
    public static func mp4a(profile: Int) -> String {
        "mp4a.40.\(profile >= 0 ? profile + 1 : 2)"
    }

    /// AAC-LC, what the transcoder makes.
    public static let aacLC = "mp4a.40.2"
    /// Opus in MP4 (the `Opus` sample entry).
    public static let opus = "opus"

    /// The MIME type of a fragmented MP4 with these codecs, e.g. `video/mp4; codecs="avc1.64001f, mp4a.40.2"`.
    public static func mimeType(video: String?, audio: String?) -> String {
        let codecs = [video, audio].compactMap { $0 }
        return (video == nil ? "audio/mp4" : "video/mp4") + "; codecs=\"" + codecs.joined(separator: ", ") + "\""
    }

    /// profile_idc, constraint flags and level_idc of the first SPS in an `avcC` record or Annex B.
    static func spsTriple(_ data: [UInt8]) -> (UInt8, UInt8, UInt8)? {
        if data.count >= 4, data[0] == 1 { return (data[1], data[2], data[3]) }
        // Annex B: 00 00 01 or 00 00 00 01, then a NAL header whose type (low 5 bits) is 7.
        var i = 0
        while i + 6 < data.count {
            if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
                if data[i + 3] & 0x1f == 7 { return (data[i + 4], data[i + 5], data[i + 6]) }
                i += 3
            } else {
                i += 1
            }
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

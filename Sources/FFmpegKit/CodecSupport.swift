import CFFmpeg

/// What this FFmpeg build decodes, asked by codec name before any file is opened (which of a web
/// page's formats the player can play).
public enum CodecSupport {
    /// Whether there is a decoder for the codec FFmpeg calls `name` (`h264`, `av1`, `opus`): the one
    /// the player would open for a stream of that codec. False for a name FFmpeg does not know.
    public static func decodes(_ name: String) -> Bool {
        guard let descriptor = avcodec_descriptor_get_by_name(name) else { return false }
        return avcodec_find_decoder(descriptor.pointee.id) != nil
    }
}

import FFmpegKit

/// The picture that stands for a story until its player shows its first frame: the story's own
/// poster image or its first keyframe, scaled down, and a blurred copy to fill around it.
public struct Poster: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        /// The image file the story names.
        case image
        /// The first keyframe of the video.
        case keyframe
    }

    public let image: RGBAImage
    public let blurred: RGBAImage
    public let source: Source

    public init(image: RGBAImage, blurred: RGBAImage, source: Source) {
        self.image = image
        self.blurred = blurred
        self.source = source
    }
}

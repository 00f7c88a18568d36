/// One entry of a story list: a video to play, with an optional title and poster image.
public struct Story: Sendable, Equatable, Codable {
    /// Media path or URL, as FFmpeg opens it.
    public var url: String
    /// Shown over the poster and in events; the file name when not given.
    public var title: String
    /// An image file to use as the poster; nil: the first keyframe of the video.
    public var poster: String?

    public init(url: String, title: String? = nil, poster: String? = nil) {
        self.url = url
        self.title = title ?? Story.defaultTitle(url)
        self.poster = poster
    }

    static func defaultTitle(_ url: String) -> String {
        let name = url.split(separator: "/").last.map(String.init) ?? url
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

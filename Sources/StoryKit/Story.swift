/// One entry of a story list: a video to play, with an optional title and poster image.
public struct Story: Sendable, Equatable, Codable {
    /// Media path or URL, as FFmpeg opens it.
    public var url: String
    /// Shown over the poster and in events; the file name when not given.
    public var title: String
    /// An image file to use as the poster; nil: the first keyframe of the video.
    public var poster: String?
    /// libavformat's options for opening ``url`` (e.g. `headers` carrying a party's media
    /// credential): used by the story's player and by its keyframe poster alike, never for the
    /// ``poster`` image (another address, which must not be sent the credential). Not encoded.
    public var inputOptions: [String: String] = [:]
    /// Sound played beside ``url`` on its clock (a page's separate sound format:
    /// ``PlayerOptions/audioFiles``), opened with the same ``inputOptions``. Not encoded.
    public var audioFiles: [String] = []

    private enum CodingKeys: String, CodingKey { case url, title, poster }

    public init(url: String, title: String? = nil, poster: String? = nil, inputOptions: [String: String] = [:],
                audioFiles: [String] = []) {
        self.url = url
        self.title = title ?? Story.defaultTitle(url)
        self.poster = poster
        self.inputOptions = inputOptions
        self.audioFiles = audioFiles
    }

    /// The title of a story given none: its file name without the extension.
    public static func defaultTitle(_ url: String) -> String {
        let name = url.split(separator: "/").last.map(String.init) ?? url
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

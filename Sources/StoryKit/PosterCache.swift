import FFmpegKit
import Foundation
import TandemBase

/// Posters of a story list, made on demand or ahead of time, at most `limit` kept (least recently
/// used go first). Pictures are cheap and streams are not: the navigator asks for the neighbours'
/// posters as soon as a story settles, so a swipe shows one at once.
public actor PosterCache {
    /// Posters are scaled to fit this many pixels on their longer side: enough to fill a phone-sized
    /// card behind the blur, ~300 KB of RGBA at most.
    public static let defaultMaxSide = 320
    /// Entries kept: the current story and two on each side, with room for a jump.
    public static let defaultLimit = 8
    /// Blur half-width as a fraction of the poster's longer side.
    static let blurFraction = 0.03

    private let stories: [Story]
    private let maxSide: Int
    public let limit: Int
    private var entries: [Int: (poster: Result<Poster, OpenError>, lastUse: Int)] = [:]
    private var inFlight: [Int: Task<Result<Poster, OpenError>, Never>] = [:]
    private var clock = 0
    /// Posters decoded so far (cache misses that did the work).
    public private(set) var madeCount = 0

    public init(stories: [Story], maxSide: Int = defaultMaxSide, limit: Int = defaultLimit) {
        self.stories = stories
        self.maxSide = maxSide
        self.limit = max(1, limit)
    }

    /// The poster of story `index`, made now if it is not cached (or being made).
    public func poster(for index: Int) async -> Result<Poster, OpenError> {
        guard stories.indices.contains(index) else {
            return .failure(OpenError(url: "story \(index)", reason: "no such story (\(stories.count) stories)"))
        }
        clock += 1
        if let entry = entries[index] {
            entries[index]?.lastUse = clock
            return entry.poster
        }
        let task = inFlight[index] ?? startMaking(index)
        let result = await task.value
        // Kept before returning (the background store may not have run yet): whoever asks next finds it.
        store(index, result)
        return result
    }

    /// Starts making the posters of `indices` in the background (skipping those cached or under way).
    public func prefetch(_ indices: [Int]) {
        for index in indices where stories.indices.contains(index) && entries[index] == nil && inFlight[index] == nil {
            _ = startMaking(index)
        }
    }

    /// The poster of `index` if it is ready, without making it.
    public func cached(_ index: Int) -> Poster? {
        guard case .success(let poster)? = entries[index]?.poster else { return nil }
        return poster
    }

    /// How many posters are kept.
    public var count: Int { entries.count }
    /// How many posters are being made.
    public var making: Int { inFlight.count }

    private func startMaking(_ index: Int) -> Task<Result<Poster, OpenError>, Never> {
        let story = stories[index]
        let maxSide = maxSide
        let task = Task { await Self.make(story, maxSide: maxSide) }
        inFlight[index] = task
        Task { self.store(index, await task.value) }
        return task
    }

    /// Keeps what the making of `index` gave, once (the asker and the background task both offer it).
    private func store(_ index: Int, _ result: Result<Poster, OpenError>) {
        guard inFlight.removeValue(forKey: index) != nil else { return }
        madeCount += 1
        clock += 1
        entries[index] = (result, clock)
        while entries.count > limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
        }
    }

    /// Decodes a poster off the cooperative pool: the story's image, else its first keyframe.
    static func make(_ story: Story, maxSide: Int) async -> Result<Poster, OpenError> {
        await OwnThread.run { makeBlocking(story, maxSide: maxSide) }
    }

    static func makeBlocking(_ story: Story, maxSide: Int) -> Result<Poster, OpenError> {
        var imageError: OpenError?
        if let path = story.poster {
            do throws(OpenError) {
                return .success(finish(try StillPicture.decode(path, maxSide: maxSide), source: .image))
            } catch {
                imageError = error
            }
        }
        do throws(OpenError) {
            // Opened as the story's player opens it (a party stream needs its media credential).
            let picture = try StillPicture.decode(story.url, maxSide: maxSide, options: story.inputOptions)
            return .success(finish(picture, source: .keyframe))
        } catch {
            return .failure(imageError.map { OpenError(url: $0.url, reason: "\($0.reason); and \(error.description)") } ?? error)
        }
    }

    private static func finish(_ image: RGBAImage, source: Poster.Source) -> Poster {
        let radius = max(1, Int(Double(max(image.width, image.height)) * blurFraction))
        return Poster(image: image, blurred: BoxBlur.blur(image, radius: radius), source: source)
    }
}

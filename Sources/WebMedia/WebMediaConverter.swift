import FFmpegKit
import Foundation
import PartyKit
import Synchronization

/// A host's ``WebMediaSource``: makes what the browser page plays of the host's own files — the
/// index, the fragmented MP4's init segment and segments (``FragmentedMP4Segmenter``), WebVTT
/// subtitles — on request. Each answer is made once however many guests ask at the same time, and
/// recent ones are kept (``cacheBytes``); the FFmpeg work runs on threads of its own
/// (``BlockingWork``), at most ``concurrentJobs`` at once. An item is looked at (its streams,
/// keyframes and first segment) on the first request that needs it, once.
public final class WebMediaConverter: WebMediaSource {
    /// One of the host's files, as the party lists it: the page decides from the same title and
    /// stream lines (``WebMediaPlan``).
    public struct Item: Sendable {
        public var path: String
        public var title: String
        public var streams: [String]

        public init(path: String, title: String, streams: [String]) {
            self.path = path
            self.title = title
            self.streams = streams
        }
    }

    /// Recent answers kept: guests watching together ask for the same segments seconds apart, and
    /// a guest seeking back asks again. 64 MiB holds about a minute of 8 Mb/s 1080p.
    public static let cacheBytes = 64 << 20
    /// Conversion jobs at once: a segment takes tens of milliseconds of one core, so two keep up
    /// with many guests, and a host on two cores keeps one for its own playback.
    public static let concurrentJobs = 2

    private struct Key: Hashable, Sendable {
        var item: Int
        var request: WebMediaRequest
    }

    /// What an item is, found once.
    private struct Prepared: Sendable {
        var plan: WebMediaPlan
        var layout: MediaLayout
        var geometry: RemuxGeometry?
    }

    private let items: [Int: Item]
    private let work: BlockingWork
    private let prepared = ResultCache<Int, Prepared>(capacity: Int.max, cost: { _ in 0 })
    private let answers: ResultCache<Key, [UInt8]>
    private let idle: InputPool

    /// Converts `items` (item index → file).
    public init(items: [Int: Item], cacheBytes: Int = WebMediaConverter.cacheBytes, concurrentJobs: Int = WebMediaConverter.concurrentJobs) {
        self.items = items
        work = BlockingWork(limit: concurrentJobs)
        answers = ResultCache(capacity: cacheBytes, cost: { $0.count })
        idle = InputPool(perItem: concurrentJobs)
    }

    /// Converts the party items that are local files: `files` (item index → path) with their
    /// entries in `items` (the party's list).
    public convenience init(files: [Int: String], items: [MediaItem]) {
        var converted: [Int: Item] = [:]
        for (index, path) in files where items.indices.contains(index) {
            converted[index] = Item(path: path, title: items[index].title, streams: items[index].identity.streams)
        }
        self.init(items: converted)
    }

    public func answer(item: Int, _ request: WebMediaRequest) async throws -> [UInt8] {
        guard let source = items[item] else { throw WebMediaUnavailable("no item \(item) is converted here") }
        do {
            return try await make(item: item, request)
        } catch let unavailable as WebMediaUnavailable {
            throw unavailable
        } catch {
            // Guests see the reason: the file goes by its title, never by the host's path.
            throw Failure(description: "\(error)".replacingOccurrences(of: source.path, with: source.title))
        }
    }

    /// Why an answer could not be made (FFmpeg's reason, the file named by its title).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private func make(item: Int, _ request: WebMediaRequest) async throws -> [UInt8] {
        let key = Key(item: item, request: request)
        switch request {
        case .index:
            return try await answers.value(for: key) {
                let prepared = try await self.prepare(item)
                return try WebMediaIndex(plan: prepared.plan, geometry: prepared.geometry, layout: prepared.layout).encoded()
            }
        case .initSegment, .segment:
            let prepared = try await prepare(item)
            guard let geometry = prepared.geometry else {
                throw WebMediaUnavailable("item \(item) is not remuxed: " + (prepared.plan.reason ?? "it plays as it is"))
            }
            if case .segment(let k) = request, !geometry.index.starts.indices.contains(k) {
                throw WebMediaUnavailable("item \(item) has no segment \(k)")
            }
            return try await answers.value(for: key) {
                try await self.withInput(item) { input in
                    let segmenter = FragmentedMP4Segmenter(input: input, geometry: geometry)
                    if case .segment(let k) = request { return try segmenter.segment(k) }
                    return try segmenter.initSegment()
                }
            }
        case .subtitles(let t):
            let prepared = try await prepare(item)
            guard prepared.layout.subtitles.indices.contains(t), let path = items[item]?.path else {
                throw WebMediaUnavailable("item \(item) has no text subtitle track \(t)")
            }
            let track = prepared.layout.subtitles[t], start = prepared.layout.containerStart
            return try await answers.value(for: key) {
                try await self.work.run {
                    Array(try SubtitleTrackReader.webVTT(url: path, stream: track.stream, containerStart: start).utf8)
                }
            }
        }
    }

    /// The plan, streams and geometry of `item`, found on its first use.
    private func prepare(_ item: Int) async throws -> Prepared {
        guard let source = items[item] else { throw WebMediaUnavailable("no item \(item) is converted here") }
        return try await prepared.value(for: item) {
            let plan = WebMediaPlan.decide(title: source.title, streams: source.streams)
            return try await self.withInput(item) { input in
                let geometry = try plan.remux.map { try RemuxGeometry(input, audio: $0) }
                return Prepared(plan: plan, layout: geometry?.layout ?? MediaLayout(input), geometry: geometry)
            }
        }
    }

    /// Runs `body` on a work thread with an open file of `item` (a kept one, else newly opened),
    /// kept for the next job unless `body` failed.
    private func withInput<T: Sendable>(_ item: Int, _ body: @escaping @Sendable (InputFile) throws -> T) async throws -> T {
        guard let path = items[item]?.path else { throw WebMediaUnavailable("no item \(item) is converted here") }
        let idle = self.idle
        return try await work.run {
            let input = try idle.take(item) ?? InputFile(url: path)
            let result = try body(input)
            idle.put(input, item: item)
            return result
        }
    }
}

/// Open files of each item between jobs: opening reads a file's header and probes its streams,
/// which is worth doing once rather than per segment. At most `perItem` kept per item.
final class InputPool: Sendable {
    private let files = Mutex<[Int: [InputFile]]>([:])
    let perItem: Int

    init(perItem: Int) { self.perItem = perItem }

    func take(_ item: Int) -> InputFile? { files.withLock { $0[item]?.popLast() } }

    func put(_ input: InputFile, item: Int) {
        files.withLock { files in
            if files[item, default: []].count < perItem { files[item, default: []].append(input) }
        }
    }
}

/// The segment indicator at the top of a story list: `count` bars, those before `index` full,
/// the one at `index` filled by `progress` (0…1), the rest empty.
public struct StorySegments: Sendable, Equatable {
    public var index: Int
    public var count: Int
    public var progress: Double

    public init(index: Int, count: Int, progress: Double) {
        self.index = index
        self.count = count
        self.progress = progress
    }
}

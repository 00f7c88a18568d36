import StoryKit

/// The segment indicator at the top of a story list: `count` bars, those before `index` full,
/// the one at `index` filled by `progress` (0…1), the rest empty. The navigator's own indicator.
public typealias StorySegments = StoryIndicator

import Testing
@Test func storyPlaceholder() {}

import Testing
@Test func windowPlaceholder() {}

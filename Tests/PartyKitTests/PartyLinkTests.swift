import Testing
@testable import PartyKit

@Suite struct PartyLinkTests {
    @Test func placeholder() {}
}

import Testing
@testable import StoryKit

@Suite struct StoryScriptTests {
    @Test func parsesTheIssueExampleAndSortsByTime() throws {
        let script = try StoryScript(parsing: "next@2,prev@4.5,jump:3@6")
        #expect(script.steps == [.init(at: 2, action: .next), .init(at: 4.5, action: .previous), .init(at: 6, action: .jump(3))])
        let swipe = try StoryScript(parsing: "commit@1.5, begin@1,progress:0.5@1.2,begin<@3,cancel@3.5,quit@9")
        #expect(swipe.steps.map(\.action) == [.begin(.forward), .progress(0.5), .commit, .begin(.backward), .cancel, .quit])
        #expect(try StoryScript(parsing: "next@1,prev@1").steps.map(\.action) == [.next, .previous], "same time: written order")
    }

    @Test(arguments: ["next", "next@", "next@-1", "next@nan", "jump@2", "jump:x@2", "jump:-1@2", "fly@2",
                      "progress:2@1", "next:1@2"])
    func rejectsBadSteps(_ text: String) {
        #expect(throws: StoryScript.ScriptError.self) { try StoryScript(parsing: text) }
    }
}

import Foundation
import Testing
import TestSupport
@testable import WebMedia

/// The host's plan against the table the page's own tests use (`Tests/PartyWebTests/js/playability.json`):
/// what the page plays, asks the host to convert, or gives up on, the host plans the same way.
@Suite struct WebMediaPlanTests {
    struct Row: Decodable, CustomStringConvertible {
        var title: String
        var streams: [String]
        var page: String
        var plan: String
        var audio: String?
        var description: String { "\(title) \(streams)" }
    }

    static let rows: [Row] = {
        struct Table: Decodable { var rows: [Row] }
        let url = Repository.root.appendingPathComponent("Tests/PartyWebTests/js/playability.json")
        return (try? JSONDecoder().decode(Table.self, from: Data(contentsOf: url)).rows) ?? []
    }()

    @Test func theTableIsThere() { #expect(Self.rows.count >= 15) }

    @Test(arguments: rows)
    func theHostPlansAsThePageDecides(_ row: Row) {
        let plan = WebMediaPlan.decide(title: row.title, streams: row.streams)
        #expect(plan.kind.rawValue == row.plan, "\(row)")
        #expect(plan.remux?.rawValue == row.audio, "\(row)")
        // What the page gives up on, the host does not convert either, and it names the same thing.
        if row.page.hasPrefix("fail:") {
            #expect(plan.kind == .unplayable)
            let words = row.page.dropFirst("fail:".count).split(separator: " ")
            let named = words.first { $0 == $0.uppercased() && $0.count > 1 } ?? "no video or sound"
            #expect(plan.reason?.contains(named) == true, "\(plan.reason ?? "")")
        } else {
            #expect(plan.kind != .unplayable)
        }
        if row.page == "convert" { #expect(plan.kind == .remux && plan.remux != nil) }
    }
}

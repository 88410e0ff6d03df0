import BotCLI
import Foundation
import GitbayKit
import RuleEngine
import Testing

/// The JSON form is the plan's own Codable form, with dates as ISO 8601 strings, and reads back equal.
@Suite struct PlanJSONRenderingTests {
    @Test func aPlanRoundTripsThroughJSON() throws {
        let json = PlanRenderer.json(PlanRenderingTests.plan)
        #expect(try PlanJSON.decodePlan(from: Data(json.utf8)) == PlanRenderingTests.plan)
    }

    @Test func theJSONIsPrettySortedAndCarriesTheFormatAndISODates() {
        let json = PlanRenderer.json(PlanRenderingTests.emptyPlan())
        #expect(
            json == """
                {
                  "entries" : [

                  ],
                  "evaluatedAt" : "2026-09-23T23:26:00.570Z",
                  "format" : "gitbay-bot-plan/1",
                  "guards" : [

                  ],
                  "me" : "gitbay-bot",
                  "rules" : [

                  ],
                  "source" : "snapshot:state.json"
                }

                """)
    }

    @Test func statusesAndKindsUseTheirDocumentedSpellings() {
        let json = PlanRenderer.json(PlanRenderingTests.plan)
        #expect(json.contains(#""status" : "already-done""#))
        #expect(json.contains(#""kind" : "merge_requests""#))
        #expect(
            json.contains(
                #""stdin" : "This issue has had no activity for 61 days.\n\nIt will be closed in 30 days.\n""#))
    }

    @Test func aPlanOfAnotherFormatIsRefused() {
        let json = PlanRenderer.json(PlanRenderingTests.emptyPlan())
            .replacingOccurrences(of: "gitbay-bot-plan/1", with: "gitbay-bot-plan/2")
        #expect(throws: DecodingError.self) { try PlanJSON.decodePlan(from: Data(json.utf8)) }
    }

    @Test func unknownFieldsAreIgnoredSoLaterVersionsOfFormatOneStillRead() throws {
        let json = PlanRenderer.json(PlanRenderingTests.emptyPlan())
            .replacingOccurrences(of: #""me" : "#, with: #""addedLater" : 1, "me" : "#)
        #expect(try PlanJSON.decodePlan(from: Data(json.utf8)) == PlanRenderingTests.emptyPlan())
    }

    @Test func aDateThatIsNotISO8601IsRefused() {
        let json = PlanRenderer.json(PlanRenderingTests.emptyPlan())
            .replacingOccurrences(of: "2026-09-23T23:26:00.570Z", with: "yesterday")
        #expect(throws: DecodingError.self) { try PlanJSON.decodePlan(from: Data(json.utf8)) }
    }
}

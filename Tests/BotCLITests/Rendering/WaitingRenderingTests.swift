import Foundation
import GitbayKit
import IssuesPlugin
import RuleEngine
import Testing

@testable import BotCLI

/// Items a rule waits on for a value not there yet are said in every place a plan is read: under
/// the rule, in the closing line, in a CI page and in a run's report; `explain` names the fields.
@Suite struct WaitingRenderingTests {
    private static var plan: Plan {
        var summary = Plan.RuleSummary(
            name: "close-stale", kind: .issues, description: nil, location: "rules/x.yml:3:5", considered: 40)
        summary.waiting = Plan.Waiting(count: 3, fields: ["comment_age.mark-stale"], first: "krz/app#12")
        return Plan(
            evaluatedAt: PlanRenderingTests.evaluatedAt, me: "gitbay-bot", source: "https://gitbay.example",
            rules: [summary], entries: [], guards: [])
    }

    private static let line =
        "3 items wait for a value not there yet: comment_age.mark-stale; gitbay-bot explain krz/app#12 says why"

    @Test func theTextSaysItUnderTheRuleAndInTheClosingLine() {
        let text = PlanRenderer.text(Self.plan, colour: false)
        #expect(text.contains("close-stale (issues): 0 matched of 40, 0 acting, 0 held\n  \(Self.line)\n"))
        #expect(
            text.hasSuffix(
                "\nnothing to do; 3 entries wait for a value not there yet (gitbay-bot explain krz/app#12)\n"))
    }

    @Test func theMarkdownAndTheReportSayIt() {
        #expect(PlanRenderer.markdown(Self.plan).contains("- **close-stale**: \(MarkdownText.escape(Self.line))\n"))
        let report = RunReportRenderer.markdown(RunReport(plan: Self.plan, applied: nil, metrics: nil, exitCode: .ok))
        #expect(report.contains("### Waiting for a value\n\n- **close-stale**: \(MarkdownText.escape(Self.line))\n"))
        #expect(
            !RunReportRenderer.markdown(
                RunReport(plan: PlanRenderingTests.plan, applied: nil, metrics: nil, exitCode: .ok)
            ).contains("Waiting for a value"))
    }

    @Test func explainNamesTheFieldsUnderTheRule() {
        let rule = Explanation.RuleResult(
            name: "close-stale", description: nil, location: "rules/x.yml:3:5", inScope: true, verdict: .notMatched,
            conditions: [
                PlanRenderingTests.condition(
                    "comment_age.mark-stale > 14d", "comment_age.mark-stale", "(none)", false, line: 7)
            ], actions: [], waitsOn: ["comment_age.mark-stale"])
        let explanation = Explanation(
            evaluatedAt: PlanRenderingTests.evaluatedAt, me: "gitbay-bot", source: "s",
            item: PlanRenderingTests.issue12, rules: [rule], guards: [])
        let waits =
            "waits: the issue has no value of comment_age.mark-stale yet; the rule may match once it has one, "
            + "and never acts before (docs/rules.md: Waiting from a notice or a label)"
        #expect(ExplainRenderer.text(explanation, noun: "issue", colour: false).contains("\n  \(waits)\n"))
        #expect(ExplainRenderer.markdown(explanation, noun: "issue").contains("\n\(MarkdownText.escape(waits))\n"))
    }
}

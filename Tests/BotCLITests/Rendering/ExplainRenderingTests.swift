import BotCLI
import Foundation
import GitbayKit
import RuleEngine
import Testing

@Suite struct ExplainRenderingTests {
    static func condition(
        _ text: String, _ field: String, _ observed: String, _ holds: Bool?, line: Int
    ) -> ConditionResult {
        PlanRenderingTests.condition(text, field, observed, holds, line: line)
    }

    static let explanation = Explanation(
        evaluatedAt: PlanRenderingTests.evaluatedAt, me: "gitbay-bot", source: "https://gitbay.example",
        item: PlanRenderingTests.issue12,
        rules: [
            Explanation.RuleResult(
                name: "label-stale", description: "Label issues idle for two months.", location: "rules/stale.yml:3:5",
                inScope: true, verdict: .matched,
                conditions: [
                    condition("idle > 60d", "idle", "61d 3h", true, line: 7),
                    condition("state == open", "state", "open", true, line: 8),
                ],
                actions: [
                    PlannedAction(
                        action: "add-label", status: .held,
                        command: PlanRenderingTests.write(["issue", "label", "krz/gitbay", "12", "--add", "stale"]),
                        note: "rule 'label-stale' limit of 3 reached")
                ]),
            Explanation.RuleResult(
                name: "close-stale", description: nil, location: "rules/stale.yml:20:5", inScope: true,
                verdict: .notMatched,
                conditions: [
                    condition("label:stale", "labels", "[bug]", false, line: 22),
                    condition("idle > 90d", "idle", "61d 3h", false, line: 23),
                ],
                actions: []),
            Explanation.RuleResult(
                name: "assign-owner", description: nil, location: "rules/triage.yml:1:5", inScope: true,
                verdict: .unknown, conditions: [condition("assignees == []", "assignees", "(not read)", nil, line: 3)],
                actions: []),
            Explanation.RuleResult(
                name: "other-repo", description: nil, location: "rules/other.yml:1:5", inScope: false,
                verdict: .notMatched, conditions: [], actions: []),
        ],
        guards: ["rule 'label-stale' limit of 3 reached: 2 more issues left for the next run"])

    @Test func theNearestMissIsTheFirstFailingConditionOfAnInScopeRuleThatDidNotMatch() {
        let rules = Self.explanation.rules
        #expect(rules[0].nearestMiss == nil)
        #expect(rules[1].nearestMiss == rules[1].conditions[0])
        #expect(rules[2].nearestMiss == nil)
        #expect(rules[3].nearestMiss == nil)
    }

    @Test func textShowsEveryRuleWithItsVerdictConditionsAndActions() {
        #expect(
            ExplainRenderer.text(Self.explanation, noun: "issue", colour: false) == """
                explain krz/gitbay#12  Crash when the config file is empty
                state of https://gitbay.example as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                label-stale (rules/stale.yml:3:5): matched
                  Label issues idle for two months.
                  ✓ idle > 60d  (idle: 61d 3h)  rules/x.yml:7:9
                  ✓ state == open  (state: open)  rules/x.yml:8:9
                  ~ issue label krz/gitbay 12 --add stale
                      held back: rule 'label-stale' limit of 3 reached

                close-stale (rules/stale.yml:20:5): not matched
                  nearest miss: label:stale: labels is [bug]
                  ✗ label:stale  (labels: [bug])  rules/x.yml:22:9
                  ✗ idle > 90d  (idle: 61d 3h)  rules/x.yml:23:9

                assign-owner (rules/triage.yml:1:5): unknown (a value was not read)
                  ? assignees == []  (assignees: (not read))  rules/x.yml:3:9

                other-repo (rules/other.yml:1:5): out of scope

                guards tripped:
                  - rule 'label-stale' limit of 3 reached: 2 more issues left for the next run

                matched by 1 of 4 rules

                """)
    }

    @Test func textColoursOnlyWhenAsked() {
        let coloured = ExplainRenderer.text(Self.explanation, noun: "issue", colour: true)
        #expect(coloured.contains("\u{1B}[1mclose-stale\u{1B}[0m (rules/stale.yml:20:5): not matched\n"))
        #expect(
            coloured.replacing(/\x1B\[[0-9]+m/, with: "")
                == ExplainRenderer.text(Self.explanation, noun: "issue", colour: false))
    }

    @Test func markdownHasAVerdictTableAndABlockPerRuleInScope() {
        #expect(
            ExplainRenderer.markdown(Self.explanation, noun: "issue") == #"""
                ### gitbay-bot explain: krz/gitbay#12

                Crash when the config file is empty

                Evaluated at 2026-09-23T23:26:00.570Z against `https://gitbay.example` as `gitbay-bot`.

                | rule | location | verdict | nearest miss |
                | --- | --- | --- | --- |
                | label-stale | rules/stale.yml:3:5 | matched |  |
                | close-stale | rules/stale.yml:20:5 | not matched | label:stale: labels is \[bug\] |
                | assign-owner | rules/triage.yml:1:5 | unknown (a value was not read) |  |
                | other-repo | rules/other.yml:1:5 | out of scope |  |

                <details>
                <summary><strong>label-stale</strong>: matched</summary>

                Label issues idle for two months.

                - ✓ `idle > 60d` (idle: 61d 3h)
                - ✓ `state == open` (state: open)
                - `~` `issue label krz/gitbay 12 --add stale`
                  - held back: rule 'label-stale' limit of 3 reached

                </details>

                <details>
                <summary><strong>close-stale</strong>: not matched</summary>

                - ✗ `label:stale` (labels: \[bug\])
                - ✗ `idle > 90d` (idle: 61d 3h)

                </details>

                <details>
                <summary><strong>assign-owner</strong>: unknown (a value was not read)</summary>

                - ? `assignees == []` (assignees: (not read))

                </details>

                > **Guards tripped**
                >
                > - rule 'label-stale' limit of 3 reached: 2 more issues left for the next run

                **matched by 1 of 4 rules**

                """#)
    }

    @Test func anExplanationRoundTripsThroughJSON() throws {
        let json = ExplainRenderer.json(Self.explanation)
        #expect(json.contains(#""format" : "gitbay-bot-explain/1""#))
        #expect(json.contains(#""verdict" : "not-matched""#))
        #expect(try PlanJSON.decode(Explanation.self, from: Data(json.utf8)) == Self.explanation)
    }

    @Test func anItemWithNoRulesOfItsKindSaysSo() {
        var explanation = Self.explanation
        explanation.rules = []
        explanation.guards = []
        #expect(
            ExplainRenderer.text(explanation, noun: "issue", colour: false) == """
                explain krz/gitbay#12  Crash when the config file is empty
                state of https://gitbay.example as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                no rules for issues

                """)
        #expect(ExplainRenderer.markdown(explanation, noun: "issue").hasSuffix("\n**no rules for issues**\n"))
    }
}

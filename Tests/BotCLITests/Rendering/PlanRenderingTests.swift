import BotCLI
import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct PlanRenderingTests {
    static let evaluatedAt = GitbayTimestamp.parse("2026-09-23T23:26:00.570Z")!

    static func condition(
        _ text: String, _ field: String, _ observed: String, _ holds: Bool?, line: Int
    ) -> ConditionResult {
        ConditionResult(
            condition: text, field: field, observed: observed, holds: holds, location: "rules/x.yml:\(line):9")
    }

    static func write(_ argv: [String], stdin: String? = nil) -> ControlCommand {
        ControlCommand(argv: argv, stdin: stdin, effect: .write)
    }

    static let issue12 = PlannedItem(
        repository: "krz/gitbay", kind: .issues, number: 12, title: "Crash when the config file is empty",
        reference: "krz/gitbay#12")

    static let staleReasons = [
        condition("idle > 60d", "idle", "61d 3h", true, line: 7),
        condition("state == open", "state", "open", true, line: 8),
    ]

    static let plan = Plan(
        evaluatedAt: evaluatedAt, me: "gitbay-bot", source: "https://gitbay.example",
        rules: [
            Plan.RuleSummary(
                name: "stale-issues", kind: .issues, description: "Label issues idle for two months.",
                location: "rules/stale.yml:3:5", considered: 5, matched: 2, acting: 1, held: 1),
            Plan.RuleSummary(
                name: "ready-stacked", kind: .mergeRequests, description: nil, location: "rules/stack.yml:1:5",
                considered: 3, matched: 1, acting: 1, held: 0),
            Plan.RuleSummary(
                name: "cancel-superseded", kind: .builds, description: "Cancel builds of replaced commits.",
                location: "rules/builds.yml:1:5", considered: 4),
        ],
        entries: [
            PlanEntry(
                rule: "stale-issues", item: issue12, reasons: staleReasons,
                actions: [
                    PlannedAction(
                        action: "add-label", status: .pending,
                        command: write(["issue", "label", "krz/gitbay", "12", "--add", "stale"])),
                    PlannedAction(
                        action: "comment", status: .pending,
                        command: write(
                            ["issue", "comment", "krz/gitbay", "12", "--stdin"],
                            stdin: "This issue has had no activity for 61 days.\n\nIt will be closed in 30 days.\n")),
                ],
                precondition: .all([.condition("idle > 60d"), .condition("state == open")])),
            PlanEntry(
                rule: "stale-issues",
                item: PlannedItem(
                    repository: "krz/gitbay", kind: .issues, number: 15, title: "Old thing",
                    reference: "krz/gitbay#15"),
                reasons: staleReasons,
                actions: [
                    PlannedAction(
                        action: "add-label", status: .held,
                        command: write(["issue", "label", "krz/gitbay", "15", "--add", "stale"]),
                        note: "rule 'stale-issues' limit of 1 reached")
                ],
                precondition: .all([.condition("idle > 60d"), .condition("state == open")])),
            PlanEntry(
                rule: "ready-stacked",
                item: PlannedItem(
                    repository: "krz/gitbay", kind: .mergeRequests, number: 7, title: "Part 2: wire the renderer",
                    reference: "krz/gitbay!7"),
                reasons: [
                    condition("stack.landed", "stack.landed", "true", true, line: 4),
                    condition("draft", "draft", "true", true, line: 6),
                    condition("label:wip", "labels", "[]", false, line: 7),
                ],
                actions: [
                    PlannedAction(
                        action: "mark-ready", status: .pending, command: write(["mr", "ready", "krz/gitbay", "7"]),
                        note: "mr ready starts the queued merge of !7 at once"),
                    PlannedAction(action: "add-label", status: .alreadyDone),
                    PlannedAction(action: "close", status: .refused, note: "it has open children"),
                    PlannedAction(action: "comment", status: .invalid, note: "the body is longer than 64 KiB"),
                ],
                precondition: .all([
                    .condition("stack.landed"), .any([.condition("draft"), .not(.condition("label:wip"))]),
                ])),
        ],
        guards: ["rule 'stale-issues' limit of 1 reached: 1 more issues left for the next run"])

    static func emptyPlan() -> Plan {
        Plan(
            evaluatedAt: evaluatedAt, me: "gitbay-bot", source: "snapshot:state.json", rules: [], entries: [],
            guards: [])
    }

    /// A plan with one entry on an item titled `title`, acting with `argv` and `stdin`.
    static func plan(
        title: String, argv: [String] = ["issue", "close", "krz/gitbay", "3"], stdin: String? = nil
    )
        -> Plan
    {
        Plan(
            evaluatedAt: evaluatedAt, me: "gitbay-bot", source: "https://gitbay.example",
            rules: [
                Plan.RuleSummary(
                    name: "r", kind: .issues, description: nil, location: "r.yml:1:5", considered: 1, matched: 1,
                    acting: 1)
            ],
            entries: [
                PlanEntry(
                    rule: "r",
                    item: PlannedItem(
                        repository: "krz/gitbay", kind: .issues, number: 3, title: title, reference: "krz/gitbay#3"),
                    reasons: [],
                    actions: [PlannedAction(action: "a", status: .pending, command: write(argv, stdin: stdin))],
                    precondition: .all([])
                )
            ],
            guards: [])
    }

    @Test func textGroupsByRuleWithMarksCommandsAndReasons() {
        #expect(
            PlanRenderer.text(Self.plan, colour: false) == """
                gitbay-bot plan of https://gitbay.example as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                stale-issues (issues): 2 matched of 5, 1 acting, 1 held
                  Label issues idle for two months.
                  krz/gitbay#12  Crash when the config file is empty
                    + issue label krz/gitbay 12 --add stale
                    + issue comment krz/gitbay 12 --stdin
                        stdin: This issue has had no activity for 61 days. … (3 lines)
                    because:
                      ✓ idle > 60d  (idle: 61d 3h)
                      ✓ state == open  (state: open)
                  krz/gitbay#15  Old thing
                    ~ issue label krz/gitbay 15 --add stale
                        held back: rule 'stale-issues' limit of 1 reached
                    because:
                      ✓ idle > 60d  (idle: 61d 3h)
                      ✓ state == open  (state: open)

                ready-stacked (merge_requests): 1 matched of 3, 1 acting, 0 held
                  krz/gitbay!7  Part 2: wire the renderer
                    + mr ready krz/gitbay 7
                        warning: mr ready starts the queued merge of !7 at once
                    = add-label: already done
                    ! close: refused: it has open children
                    x comment: invalid: the body is longer than 64 KiB
                    because:
                      ✓ stack.landed  (stack.landed: true)
                      ✓ draft  (draft: true)
                      ✗ label:wip  (labels: [])

                cancel-superseded (builds): 0 matched of 4, 0 acting, 0 held
                  Cancel builds of replaced commits.

                guards tripped:
                  - rule 'stale-issues' limit of 1 reached: 1 more issues left for the next run

                3 commands pending (2 rules, 2 entries), 1 held back

                """)
    }

    @Test func colourMarksRuleNamesAndStatusesOnlyWhenAskedFor() {
        #expect(
            PlanRenderer.text(Self.plan, colour: true) == """
                gitbay-bot plan of https://gitbay.example as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                \u{1B}[1mstale-issues\u{1B}[0m (issues): 2 matched of 5, 1 acting, 1 held
                  Label issues idle for two months.
                  krz/gitbay#12  Crash when the config file is empty
                    \u{1B}[32m+ issue label krz/gitbay 12 --add stale\u{1B}[0m
                    \u{1B}[32m+ issue comment krz/gitbay 12 --stdin\u{1B}[0m
                        stdin: This issue has had no activity for 61 days. … (3 lines)
                    because:
                      ✓ idle > 60d  (idle: 61d 3h)
                      ✓ state == open  (state: open)
                  krz/gitbay#15  Old thing
                    \u{1B}[33m~ issue label krz/gitbay 15 --add stale\u{1B}[0m
                        held back: rule 'stale-issues' limit of 1 reached
                    because:
                      ✓ idle > 60d  (idle: 61d 3h)
                      ✓ state == open  (state: open)

                \u{1B}[1mready-stacked\u{1B}[0m (merge_requests): 1 matched of 3, 1 acting, 0 held
                  krz/gitbay!7  Part 2: wire the renderer
                    \u{1B}[32m+ mr ready krz/gitbay 7\u{1B}[0m
                        warning: mr ready starts the queued merge of !7 at once
                    = add-label: already done
                    \u{1B}[33m! close: refused: it has open children\u{1B}[0m
                    \u{1B}[31mx comment: invalid: the body is longer than 64 KiB\u{1B}[0m
                    because:
                      ✓ stack.landed  (stack.landed: true)
                      ✓ draft  (draft: true)
                      ✗ label:wip  (labels: [])

                \u{1B}[1mcancel-superseded\u{1B}[0m (builds): 0 matched of 4, 0 acting, 0 held
                  Cancel builds of replaced commits.

                \u{1B}[33mguards tripped:\u{1B}[0m
                  - rule 'stale-issues' limit of 1 reached: 1 more issues left for the next run

                3 commands pending (2 rules, 2 entries), 1 held back

                """)
        #expect(!PlanRenderer.text(Self.plan, colour: false).contains("\u{1B}"))
    }

    @Test func colourAddsNothingButEscapeCodes() {
        let coloured = PlanRenderer.text(Self.plan, colour: true)
        let stripped = coloured.replacing(/\x1B\[[0-9]+m/, with: "")
        #expect(stripped != coloured)
        #expect(stripped == PlanRenderer.text(Self.plan, colour: false))
    }

    @Test func markdownHasASummaryTableAndADetailsBlockPerMatchingRule() {
        #expect(
            PlanRenderer.markdown(Self.plan) == #"""
                ### gitbay-bot plan

                Evaluated at 2026-09-23T23:26:00.570Z against `https://gitbay.example` as `gitbay-bot`.

                | rule | kind | matched | acting | held |
                | --- | --- | ---: | ---: | ---: |
                | stale-issues | issues | 2 of 5 | 1 | 1 |
                | ready-stacked | merge_requests | 1 of 3 | 1 | 0 |
                | cancel-superseded | builds | 0 of 4 | 0 | 0 |

                <details>
                <summary><strong>stale-issues</strong> (issues): 2 matched of 5, 1 acting, 1 held</summary>

                Label issues idle for two months.

                - **krz/gitbay#12** Crash when the config file is empty
                  - `+` `issue label krz/gitbay 12 --add stale`
                  - `+` `issue comment krz/gitbay 12 --stdin`
                    - stdin: This issue has had no activity for 61 days. … (3 lines)
                  - because:
                    - ✓ `idle > 60d` (idle: 61d 3h)
                    - ✓ `state == open` (state: open)
                - **krz/gitbay#15** Old thing
                  - `~` `issue label krz/gitbay 15 --add stale`
                    - held back: rule 'stale-issues' limit of 1 reached
                  - because:
                    - ✓ `idle > 60d` (idle: 61d 3h)
                    - ✓ `state == open` (state: open)

                </details>

                <details>
                <summary><strong>ready-stacked</strong> (merge_requests): 1 matched of 3, 1 acting, 0 held</summary>

                - **krz/gitbay!7** Part 2: wire the renderer
                  - `+` `mr ready krz/gitbay 7`
                    - warning: mr ready starts the queued merge of !7 at once
                  - `=` add-label: already done
                  - `!` close: refused: it has open children
                  - `x` comment: invalid: the body is longer than 64 KiB
                  - because:
                    - ✓ `stack.landed` (stack.landed: true)
                    - ✓ `draft` (draft: true)
                    - ✗ `label:wip` (labels: \[\])

                </details>

                > **Guards tripped**
                >
                > - rule 'stale-issues' limit of 1 reached: 1 more issues left for the next run

                **3 commands pending (2 rules, 2 entries), 1 held back**

                """#)
    }
}

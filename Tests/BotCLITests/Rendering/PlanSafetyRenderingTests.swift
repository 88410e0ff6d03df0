import BotCLI
import Foundation
import GitbayKit
import RuleEngine
import Testing

/// Hostile titles and arguments, huge stdin bodies, narrow terminals, empty and fully held plans.
@Suite struct PlanSafetyRenderingTests {
    static let hostileTitle = "x | y <script>alert(1)</script> `rm` **b** [l](u) @alice\n\u{1B}[31mred\u{202E}"

    @Test func anEmptyPlanHasNothingToDo() {
        let plan = PlanRenderingTests.emptyPlan()
        #expect(
            PlanRenderer.text(plan, colour: true) == """
                gitbay-bot plan of snapshot:state.json as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                nothing to do

                """)
        #expect(
            PlanRenderer.markdown(plan) == """
                ### gitbay-bot plan

                Evaluated at 2026-09-23T23:26:00.570Z against `snapshot:state.json` as `gitbay-bot`.

                **nothing to do**

                """)
    }

    @Test func aTrippedGuardHoldsEverythingAndSaysSo() {
        let tripwire =
            "tripwire: rule 'r' would act on 12 of 20 issues (60%, more than 25%); check the rule, then use --force-rule r"
        var plan = PlanRenderingTests.plan(title: "One")
        plan.entries[0].actions[0].status = .held
        plan.entries[0].actions[0].note = tripwire
        plan.rules[0].acting = 0
        plan.rules[0].held = 1
        plan.guards = [tripwire]
        #expect(
            PlanRenderer.text(plan, colour: false) == """
                gitbay-bot plan of https://gitbay.example as gitbay-bot, evaluated at 2026-09-23T23:26:00.570Z

                r (issues): 1 matched of 1, 0 acting, 1 held
                  krz/gitbay#3  One
                    ~ issue close krz/gitbay 3
                        held back: \(tripwire)

                guards tripped:
                  - \(tripwire)

                0 commands pending (0 rules, 0 entries), 1 held back

                """)
        #expect(
            PlanRenderer.markdown(plan).hasSuffix(
                """
                > **Guards tripped**
                >
                > - \(tripwire)

                **0 commands pending (0 rules, 0 entries), 1 held back**

                """))
    }

    /// A tripwire holds back every entry of its rule; the text and Markdown list the first five
    /// and count the rest, while the JSON keeps them all.
    @Test func heldBackEntriesPastTheFirstFiveAreCounted() throws {
        let tripwire = "tripwire: rule 'r' would act on 8 of 8 issues (100%, more than 25%)"
        var plan = PlanRenderingTests.plan(title: "One")
        let template = plan.entries[0]
        plan.entries = (1...8).map { number in
            var entry = template
            entry.item.number = number
            entry.item.reference = "krz/gitbay#\(number)"
            entry.actions[0].status = .held
            entry.actions[0].note = tripwire
            return entry
        }
        plan.rules[0].matched = 8
        plan.rules[0].acting = 0
        plan.rules[0].held = 8
        let text = PlanRenderer.text(plan, colour: false)
        #expect(text.contains("krz/gitbay#5  One"))
        #expect(!text.contains("krz/gitbay#6  One"))
        #expect(text.components(separatedBy: "held back: ").count - 1 == 5)
        #expect(text.contains("\n  … and 3 more held back as above; every entry: --format json, or plan -o FILE\n"))
        #expect(text.hasSuffix("0 commands pending (0 rules, 0 entries), 8 held back\n"))
        let markdown = PlanRenderer.markdown(plan)
        #expect(markdown.contains("krz/gitbay#5"))
        #expect(!markdown.contains("krz/gitbay#6"))
        #expect(markdown.contains("\n- … and 3 more held back as above; every entry: --format json, or plan -o FILE\n"))
        let decoded = try PlanJSON.decodePlan(from: Data(PlanRenderer.json(plan).utf8))
        #expect(decoded.entries.count == 8)
    }

    @Test func aLongStdinBodyShowsOnlyItsFirstLineAndLineCount() {
        let body = (1...2000).map { "line \($0): lorem ipsum dolor sit amet" }.joined(separator: "\n")
        #expect(body.utf8.count > 64 * 1024)
        let text = PlanRenderer.text(PlanRenderingTests.plan(title: "T", stdin: body), colour: false)
        #expect(text.contains("\n        stdin: line 1: lorem ipsum dolor sit amet … (2000 lines)\n"))
        #expect(!text.contains("line 2:"))
        #expect(text.count < 600)
        #expect(!PlanRenderer.markdown(PlanRenderingTests.plan(title: "T", stdin: body)).contains("line 2:"))
    }

    @Test func aSingleHugeStdinLineIsCutToTheWidth() throws {
        let body = String(repeating: "lorem ipsum ", count: 6000)
        let text = PlanRenderer.text(PlanRenderingTests.plan(title: "T", stdin: body), colour: false, width: 60)
        let line = try #require(text.split(separator: "\n").first { $0.contains("stdin:") })
        #expect(line.hasSuffix("… (1 line)"))
        #expect(line.count <= 60)
    }

    @Test func stdinPreviewsShowShortAndEmptyBodiesWhole() {
        let short = PlanRenderer.text(PlanRenderingTests.plan(title: "T", stdin: "Thanks!\n"), colour: false)
        #expect(short.contains("\n        stdin: Thanks!\n"))
        let empty = PlanRenderer.text(PlanRenderingTests.plan(title: "T", stdin: ""), colour: false)
        #expect(empty.contains("\n        stdin: (empty)\n"))
    }

    @Test func titlesAreCutToTheWidthButCommandsNeverAre() {
        let label = String(repeating: "very-long-label-", count: 8)
        let plan = PlanRenderingTests.plan(
            title: String(repeating: "A long title ", count: 10),
            argv: ["issue", "label", "krz/gitbay", "3", "--add", label])
        let lines = PlanRenderer.text(plan, colour: false, width: 50).split(separator: "\n")
        #expect(lines.contains("  krz/gitbay#3  A long title A long title A long …"))
        #expect(lines.contains("    + issue label krz/gitbay 3 --add \(label)"))
    }

    @Test func commandsAreShellQuotedSoTheyPasteAsTheExactArgv() {
        let plan = PlanRenderingTests.plan(
            title: "T",
            argv: ["issue", "label", "krz/gitbay", "3", "--add", "needs review", "it's", "a\nb", "\u{1B}[2J", "", "!x"])
        #expect(
            PlanRenderer.text(plan, colour: false).contains(
                #"    + issue label krz/gitbay 3 --add 'needs review' 'it'\''s' $'a\nb' $'\x1B[2J' '' '!x'"#))
    }

    @Test func hostileTitlesCannotDriveTheTerminal() {
        let text = PlanRenderer.text(PlanRenderingTests.plan(title: Self.hostileTitle), colour: false, width: 200)
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{202E}"))
        #expect(text.contains("  krz/gitbay#3  x | y <script>alert(1)</script> `rm` **b** [l](u) @alice␊␛[31mred�\n"))
    }

    @Test func hostileTitlesCannotBreakTheMarkdown() {
        let markdown = PlanRenderer.markdown(PlanRenderingTests.plan(title: Self.hostileTitle))
        #expect(
            markdown.contains(
                #"""

                - **krz/gitbay#3** x \| y &lt;script&gt;alert(1)&lt;/script&gt; \`rm\` \*\*b\*\* \[l\](u) &#64;alice ␛\[31mred�

                """#))
    }

    @Test func hostileRuleNamesAreEscapedInTheTableAndTheSummary() {
        var plan = PlanRenderingTests.plan(title: "T")
        plan.rules[0].name = "a|b<i>"
        plan.entries[0].rule = "a|b<i>"
        let markdown = PlanRenderer.markdown(plan)
        #expect(markdown.contains("\n| a\\|b&lt;i&gt; | issues | 1 of 1 | 1 | 0 |\n"))
        #expect(markdown.contains("\n<summary><strong>a|b&lt;i&gt;</strong> (issues): "))
    }

    @Test func backticksInACommandGetALongerFence() {
        let plan = PlanRenderingTests.plan(title: "T", argv: ["issue", "label", "krz/gitbay", "3", "--add", "`x``"])
        #expect(PlanRenderer.markdown(plan).contains("  - `+` ```issue label krz/gitbay 3 --add '`x``'```\n"))
    }
}

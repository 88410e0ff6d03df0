import Foundation
import GitbayKit
import RuleEngine
import Testing
import YAML

/// `label_age.LABEL` and `comment_age.RULE`: a close rule counts from its own label or notice.
@Suite struct AgeFamilyTests {
    private func labeled(_ labels: [String], daysAgo: Double, by actor: String = "alice", id: Int) -> ItemActivity {
        ItemActivity(
            at: Fixtures.ago(days: daysAgo), actor: actor, kind: "issue.labeled", source: .feed, labels: labels, id: id)
    }

    private func journalAdd(_ label: String, daysAgo: Double) -> ItemActivity {
        ItemActivity(
            at: Fixtures.ago(days: daysAgo), actor: Fixtures.me, kind: "add-label", source: .journal,
            argv: ["issue", "label", "krz/gitbay", "188", "--add", label])
    }

    private func age(_ field: String, labels: [String] = ["stale"], activity: [ItemActivity]) -> FieldValue? {
        Fixtures.value(field, Fixtures.context(Fixtures.issue(labels: labels), activity: activity))
    }

    @Test func theJournalSaysWhenTheBotAddedTheLabel() {
        #expect(age("label_age.stale", activity: [journalAdd("stale", daysAgo: 9)]) == .duration(9 * Fixtures.day))
        // On the issue, but neither the feed nor the journal dates it: unknown.
        #expect(age("label_age.stale", activity: [journalAdd("bug", daysAgo: 9)]) == .unknown)
    }

    @Test func theFeedSaysWhenTheLabelCameAfterAnEventWithoutIt() {
        let events = [labeled(["bug"], daysAgo: 20, id: 1), labeled(["bug", "stale"], daysAgo: 12, id: 2)]
        #expect(age("label_age.stale", activity: events) == .duration(12 * Fixtures.day))
        // An event that already holds it says only that it came earlier: unknown.
        #expect(age("label_age.stale", activity: [labeled(["stale"], daysAgo: 12, id: 2)]) == .unknown)
    }

    /// A maintainer removed it and the bot put it back: the clock starts again, and the bot's
    /// first addition no longer counts.
    @Test func aLabelPutBackStartsItsClockAgain() {
        let events = [
            journalAdd("stale", daysAgo: 30), labeled(["stale"], daysAgo: 30, by: Fixtures.me, id: 1),
            labeled([], daysAgo: 20, id: 2), journalAdd("stale", daysAgo: 3),
        ]
        #expect(age("label_age.stale", activity: events) == .duration(3 * Fixtures.day))
        // Removed and never put back by the bot: the journal's old addition is void.
        #expect(age("label_age.stale", activity: Array(events.prefix(3))) == .unknown)
    }

    /// The bot's own label event, with the journal saying the bot added the label, dates the
    /// addition in the server's time (the journal's is the bot's clock).
    @Test func theBotsOwnEventDatesTheAdditionItsJournalRecords() {
        let own = labeled(["stale"], daysAgo: 9, by: Fixtures.me, id: 1)
        #expect(
            age("label_age.stale", activity: [journalAdd("stale", daysAgo: 2), own]) == .duration(9 * Fixtures.day))
        // Without the journal the bot's event could be any change of its labels: unknown.
        #expect(age("label_age.stale", activity: [own]) == .unknown)
    }

    @Test func anItemWithoutTheLabelHasNoAge() {
        #expect(age("label_age.stale", labels: [], activity: [journalAdd("stale", daysAgo: 9)]) == .absent)
    }

    @Test func theNoticesAgeComesFromItsRulesMarker() {
        let issue = Fixtures.issue(comments: [
            Fixtures.comment(Fixtures.me, "Repro?\n<!-- gitbay-bot:rule=ask item=krz/gitbay#188 -->", daysAgo: 60),
            Fixtures.comment(
                Fixtures.me, "Stale.\n<!-- gitbay-bot:rule=mark-stale item=krz/gitbay#188 -->", daysAgo: 5),
            Fixtures.comment("alice", "<!-- gitbay-bot:rule=close item=krz/gitbay#188 -->", daysAgo: 1),
        ])
        let context = Fixtures.context(issue)
        #expect(Fixtures.value("comment_age.mark-stale", context) == .duration(5 * Fixtures.day))
        #expect(Fixtures.value("comment_age.ask", context) == .duration(60 * Fixtures.day))
        // Only the bot's own comments carry its markers.
        #expect(Fixtures.value("comment_age.close", context) == .absent)
        // A prefix of a rule's name is another rule.
        #expect(Fixtures.value("comment_age.mark", context) == .absent)
    }

    /// Labels such as `kind/bug` and `priority:high` can be named after the dot.
    @Test func aLabelWithASlashOrAColonCanBeNamed() throws {
        let text = """
            scope: owner:krz
            rules:
              - name: triaged
                on: issues
                when: [label_age.kind/bug > 1d, label_age.priority:high > 1d]
                do: [close]
            """
        let set = RuleSet.load(files: [("r.yml", Array(text.utf8))], registry: Fixtures.registry)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        #expect(
            set.rules.first?.condition.tests.map(\.field.name) == ["label_age.kind/bug", "label_age.priority:high"])
    }

    @Test func rulesNameFamiliesAndAMissingNameIsAnError() throws {
        let good = """
            scope: owner:krz
            rules:
              - name: close-stale
                on: issues
                when: [labels has stale, label_age.stale > 14d, comment_age.mark-stale > 14d]
                do: [close]
              - name: mark-stale
                on: issues
                when: [labels lacks stale]
                do: [add-label: stale, comment: Stale.]
            """
        let set = RuleSet.load(files: [("r.yml", Array(good.utf8))], registry: Fixtures.registry)
        #expect(set.diagnostics.isEmpty, "\(set.diagnostics)")
        let bad = good.replacingOccurrences(of: "label_age.stale > 14d", with: "label_age. > 14d")
        let diagnostics = RuleSet.load(files: [("r.yml", Array(bad.utf8))], registry: Fixtures.registry).diagnostics
        #expect("\(diagnostics)".contains("found 'label_age.'"), "\(diagnostics)")
        let wrongType = good.replacingOccurrences(of: "label_age.stale > 14d", with: "label_age.stale = open")
        #expect(
            !RuleSet.load(files: [("r.yml", Array(wrongType.utf8))], registry: Fixtures.registry).diagnostics.isEmpty)
    }

    /// `comment_age.RULE` must name a rule of the set, whichever file holds it.
    ///
    /// A rule with mistakes of its own is still named, and still has its names checked.
    /// `label_age` names labels, which only the server knows.
    @Test func aRuleNamedThatNoFileDefinesIsAnErrorAtTheName() {
        let mark =
            "scope: owner:krz\nrules:\n  - name: mark-stale\n    on: issues\n    when: [quiet > 6]\n"
            + "    do: [add-label: stale]\n"
        let close =
            "scope: owner:krz\nrules:\n  - name: close-stale\n    on: issues\n"
            + "    when: [comment_age.mark-stale > 14d, comment_age.mark-stael > 14d, label_age.nowhere > 1d]\n"
            + "    do: [close]\n"
        let set = RuleSet.load(
            files: [("a.yml", Array(mark.utf8)), ("b.yml", Array(close.utf8))], registry: Fixtures.registry)
        #expect(
            set.diagnostics.map(\.description) == [
                "a.yml:5:20: error: '6' is not a duration; write a number and a unit: 60d, 2w, 36h, 90m, 30s",
                "b.yml:5:54: error: unknown rule 'mark-stael'; did you mean 'mark-stale'? (comment_age.RULE counts "
                    + "from that rule's notices; no rule read has this name, so it never has a value and this "
                    + "rule never acts)",
            ])
        let alone = RuleSet.load(files: [("b.yml", Array(close.utf8))], registry: Fixtures.registry)
        #expect(alone.diagnostics.map(\.location.column) == [24, 54])
    }

    /// `comment_age.RULE` names a rule of the item's own kind: a merge request rule's notices are
    /// never on an issue, so an issue rule counting from them never acts.
    @Test func aRuleOfAnotherKindNamedIsAnErrorAtTheName() {
        let rules =
            "scope: owner:krz\nrules:\n  - name: remind-reviewers\n    on: merge_requests\n"
            + "    when: [quiet > 7d]\n    do: [comment: Please review.]\n"
            + "  - name: close-quiet\n    on: issues\n    when: [comment_age.remind-reviewers > 14d]\n"
            + "    do: [close]\n"
        let set = RuleSet.load(files: [("r.yml", Array(rules.utf8))], registry: Fixtures.registry)
        #expect(
            set.diagnostics.map(\.description) == [
                "r.yml:9:24: error: rule 'remind-reviewers' acts on merge_requests, not issues (comment_age.RULE "
                    + "counts from that rule's notices on this item, and it never posts one here, so this rule "
                    + "never acts)"
            ])
        let sameKind = rules.replacingOccurrences(of: "on: merge_requests", with: "on: issues")
        #expect(RuleSet.load(files: [("r.yml", Array(sameKind.utf8))], registry: Fixtures.registry).diagnostics.isEmpty)
    }
}

import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import RuleEngine
import Testing

/// No item waits without a word: a rule that rejects an item only for want of a value nobody has
/// yet (a notice of a rule's, a label nobody can date) counts it, and `explain` names the field.
@Suite struct WaitingTests {
    private let day = 86_400.0

    /// The stale rules the shipped ones were before they restarted the lifecycle.
    private let oldClose = olderCloseStaleRules

    /// An issue quiet for 100 days, labelled `labels`, whose only comments are `comments`.
    private func issue(
        _ number: Int, labels: [String] = ["stale"], comments: [GitbayKit.Comment] = []
    )
        -> GitbayKit.Issue
    {
        GitbayKit.Issue(
            number: number, title: "Issue \(number)", state: .open, author: "alice", labels: labels,
            comments: comments, createdAt: now - 200 * day, updatedAt: now - 100 * day)
    }

    /// The bot's comment `daysAgo`, marked for `rule` or, without one, unmarked (older rules', or another bot's).
    private func notice(_ number: Int, rule: String?, daysAgo: Double) -> GitbayKit.Comment {
        let marker = rule.map { "\n<!-- gitbay-bot:rule=\($0) item=krz/app#\(number) -->" } ?? ""
        return GitbayKit.Comment(
            author: "triage-bot", body: "This issue is stale." + marker, createdAt: now - daysAgo * day, kind: .comment)
    }

    @Test func anItemWaitingOnlyForAMissingNoticeIsCountedAndNamed() throws {
        let state = try forge(issues: [
            issue(1),
            issue(2, comments: [notice(2, rule: nil, daysAgo: 20)]),
            // Not stale: the rule fails whatever the notice says.
            issue(3, labels: []),
            // A notice of the rule's, too young: an ordinary wait with a value, not a missing one.
            issue(4, comments: [notice(4, rule: "mark-stale", daysAgo: 5)]),
        ])
        let plan = Evaluator(registry: registry).plan(rules: try rules(oldClose), state: state, source: "t")
        let waiting = try #require(plan.rules.first?.waiting)
        #expect(waiting.count == 2)
        // Neither the notice nor the label can be told: both are named, in the rule's order.
        #expect(waiting.fields == ["comment_age.mark-stale", "label_age.stale"])
        #expect(waiting.first == "krz/app#1")
        // The older `mark-stale` marks only #3, which nobody labelled yet.
        #expect(plan.entries.map(\.rule) == ["mark-stale"])
    }

    @Test func aNoticeWithADatableLabelLeavesNothingWaiting() throws {
        var state = try forge(issues: [issue(1, comments: [notice(1, rule: "mark-stale", daysAgo: 20)])])
        state.repositories[0].activity[.init(kind: .issues, number: 1)] = [
            ItemActivity(
                at: now - 20 * day, actor: "triage-bot", kind: "add-label", source: .journal,
                argv: ["issue", "label", "krz/app", "1", "--add", "stale"])
        ]
        let plan = Evaluator(registry: registry).plan(rules: try rules(oldClose), state: state, source: "t")
        #expect(plan.rules.first?.waiting == nil)
        #expect(plan.entries.map(\.item.reference) == ["krz/app#1"])
    }

    /// `is absent` says what to do meanwhile, and a rule that says it waits on nothing.
    @Test func aRuleThatTestsForAbsenceDoesNotWait() throws {
        let yaml = oldClose.replacingOccurrences(
            of: "      - label_age.stale > 14d\n",
            with: "      - any: [label_age.stale > 14d, label_age.stale is absent]\n")
        let state = try forge(issues: [issue(1, comments: [notice(1, rule: "mark-stale", daysAgo: 20)])])
        let plan = Evaluator(registry: registry).plan(rules: try rules(yaml), state: state, source: "t")
        #expect(plan.rules.first?.waiting == nil)
        #expect(plan.entries.map(\.item.reference) == ["krz/app#1"])
    }

    /// Under `not`, an absent value decides the condition (`not` of a failed test holds): the rule
    /// acts, and nothing waits.
    @Test func aNegatedTestOnAnAbsentValueMatchesAndDoesNotWait() throws {
        let yaml = oldClose.replacingOccurrences(
            of: "      - label_age.stale > 14d\n", with: "      - not label_age.stale <= 14d\n")
        let state = try forge(issues: [issue(1, comments: [notice(1, rule: "mark-stale", daysAgo: 20)])])
        let plan = Evaluator(registry: registry).plan(rules: try rules(yaml), state: state, source: "t")
        #expect(plan.rules.first?.waiting == nil)
        #expect(plan.entries.count == 1)
    }

    @Test func explainNamesTheFieldsTheRuleWaitsOn() throws {
        let state = try forge(issues: [issue(1), issue(2, labels: [])])
        let evaluator = Evaluator(registry: registry)
        let first = try #require(registry.reference(parsing: "krz/app#1"))
        let waiting = try #require(
            evaluator.explanation(of: first, rules: try rules(oldClose), state: state, source: "t"))
        #expect(waiting.rules.first?.waitsOn == ["comment_age.mark-stale", "label_age.stale"])
        #expect(waiting.rules.first?.conditions.last?.observed == "(unknown)")
        let second = try #require(registry.reference(parsing: "krz/app#2"))
        let notStale = try #require(
            evaluator.explanation(of: second, rules: try rules(oldClose), state: state, source: "t"))
        #expect(notStale.rules.first?.waitsOn == nil)
    }

    /// The shipped rules give an issue labelled `stale` by someone else a notice of their own, and
    /// close it only from one: the day a user migrates, nothing waits unseen.
    @Test func theShippedRulesRestartTheLifecycleOfAStaleIssueWithoutTheirNotice() throws {
        let state = try forge(issues: [
            issue(1, comments: [notice(1, rule: nil, daysAgo: 20)]),
            issue(2, comments: [notice(2, rule: "mark-stale", daysAgo: 20)]),
        ])
        let plan = Evaluator(registry: registry).plan(rules: try shippedRules(), state: state, source: "t")
        let marked = try #require(plan.entries.first { $0.rule == "mark-stale" })
        #expect(marked.item.reference == "krz/app#1")
        #expect(marked.actions.map(\.status) == [.alreadyDone, .pending])
        #expect(marked.actions[1].command?.stdin?.contains("rule=mark-stale item=krz/app#1") == true)
        // Its own notice, 20 days old, and a label nobody can date: the notice's clock decides.
        let closed = try #require(plan.entries.first { $0.rule == "close-stale" })
        #expect(closed.item.reference == "krz/app#2")
        #expect(closed.actions.allSatisfy { $0.status == .pending })
        // Until its notice is posted, #1 waits on it, and the plan says so.
        let waiting = try #require(plan.rules.first { $0.name == "close-stale" }?.waiting)
        #expect(waiting.count == 1 && waiting.first == "krz/app#1")
        // The label's test is moot beside `label_age.stale is absent`, so only the notice is named.
        #expect(waiting.fields == ["comment_age.mark-stale"])
    }
}

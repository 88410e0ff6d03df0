import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// `quiet` bounded from the listing row and the feed, so that a condition on it is decided
/// without `issue show` when every value the row allows agrees.
@Suite struct QuietBoundsTests {
    /// The needs a listing row and the feed give an issue: everything but its detail.
    private let rowOnly: Set<ReadNeed> = Set(Fixtures.registry.needs).subtracting([.detail, .freshDetail])

    /// The condition `text` of an issue rule, compiled as the engine compiles it.
    private func condition(_ text: String, on kind: String = "issues") throws -> CompiledCondition {
        let source =
            "scope: repo:krz/app\nrules:\n  - name: r\n    on: \(kind)\n    when:\n      - \(text)\n    do:\n      - close\n"
        let loaded = RuleSet.load(files: [(path: "r.yml", bytes: Array(source.utf8))], registry: Fixtures.registry)
        let rule = try #require(loaded.rules.first, "\(loaded.diagnostics)")
        return CompiledCondition(rule.condition, kind: rule.kind, registry: Fixtures.registry)
    }

    @Test func aRowThatShowsNothingMovedForLongDecidesQuietWithoutTheComments() throws {
        let stale = try condition("quiet > 60d")
        let old = Fixtures.issue(createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 70))
        #expect(stale.decide(Fixtures.context(old, known: rowOnly)) == true, "every comment moves updated_at")
        let young = Fixtures.issue(createdAt: Fixtures.ago(days: 30), updatedAt: Fixtures.ago(days: 30))
        #expect(stale.decide(Fixtures.context(young, known: rowOnly)) == false, "opened 30 days ago")
        // Moved 10 days ago: by a person's comment or by the bot's, only the comments tell.
        let moved = Fixtures.issue(createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 10))
        #expect(stale.decide(Fixtures.context(moved, known: rowOnly)) == nil)
        #expect(try condition("quiet < 60d").decide(Fixtures.context(old, known: rowOnly)) == false)
        #expect(try condition("not quiet > 60d").decide(Fixtures.context(old, known: rowOnly)) == false)
    }

    /// A label change moves no `updated_at`, so the feed's event of a person bounds `quiet` too.
    @Test func aPersonsLabelEventAfterTheLastMoveMakesItRecent() throws {
        let issue = Fixtures.issue(createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 70))
        let relabelled = ItemActivity(
            at: Fixtures.ago(days: 5), actor: "maintainer", kind: "issue.labeled", source: .feed, labels: [])
        let context = Fixtures.context(issue, known: rowOnly, activity: [relabelled])
        #expect(try condition("quiet > 60d").decide(context) == false)
        let byBot = ItemActivity(at: Fixtures.ago(days: 5), actor: Fixtures.me, kind: "issue.labeled", source: .feed)
        #expect(try condition("quiet > 60d").decide(Fixtures.context(issue, known: rowOnly, activity: [byBot])) == true)
    }

    @Test func theResultShowsTheRangeThatDecidedIt() throws {
        let issue = Fixtures.issue(createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 70))
        var results: [ConditionResult] = []
        #expect(
            try condition("quiet > 60d").evaluate(Fixtures.context(issue, known: rowOnly), results: &results) == true)
        let observed = try #require(results.first?.observed)
        #expect(observed.hasSuffix(" to 200d") && observed.hasPrefix("69d"), "\(observed)")
    }

    /// A merge request's comments and reviews move no `updated_at`: its row bounds `quiet` from
    /// above only, so `quiet > 40d` can be ruled out without `mr show`, never confirmed.
    @Test func aMergeRequestsRowBoundsQuietFromAboveOnly() throws {
        let row = Fixtures.context(Fixtures.mergeRequest(updatedAt: Fixtures.ago(days: 25)), known: rowOnly)
        #expect(try condition("quiet > 40d", on: "merge_requests").decide(row) == false, "opened 30 days ago")
        #expect(try condition("quiet > 20d", on: "merge_requests").decide(row) == nil, "a comment may be new")
        #expect(try condition("quiet < 40d", on: "merge_requests").decide(row) == true)
    }

    /// A condition decided from a range leaves the value unread, so an action printing the field
    /// needs what the field needs: its text then waits for the read, never prints an empty value.
    @Test func anActionThatPrintsAFieldNeedsWhatTheFieldNeeds() throws {
        let source = """
            scope: repo:krz/app
            rules:
              - name: r
                on: merge_requests
                when: [quiet < 40d]
                do:
                  - add-label: quiet
                  - set-status: {context: gitbay-bot/quiet, state: success, description: "quiet for {{ quiet }}"}
            """
        let loaded = RuleSet.load(files: [(path: "r.yml", bytes: Array(source.utf8))], registry: Fixtures.registry)
        let rule = try #require(loaded.rules.first, "\(loaded.diagnostics)")
        let label = try #require(rule.actions.first)
        #expect(!label.needs(for: rule.kind, registry: Fixtures.registry).contains(.detail))
        let status = try #require(rule.actions.last)
        #expect(status.needs(for: rule.kind, registry: Fixtures.registry).isSuperset(of: [.statuses, .detail]))
        #expect(rule.actionNeeds(registry: Fixtures.registry).contains(.detail))
    }

    /// Over random issues as gitbay keeps them (every comment moves `updated_at`), the value the
    /// comments give always lies in the row's range, and a condition the range decides gets the
    /// verdict the comments give.
    @Test func theExactValueAlwaysLiesInTheRowsRange() throws {
        var random = SeededGenerator(seed: 0x7175_6965_74)
        let conditions = try ["quiet > 60d", "quiet < 14d", "quiet >= 30d", "quiet <= 90d"].map { try condition($0) }
        var decided = 0
        for _ in 0..<400 {
            let created = Double.random(in: 1...400, using: &random)
            let people = ["alice", "cmc", Fixtures.me, "ci-bot"]
            let comments = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Fixtures.comment(
                    people.randomElement(using: &random)!, "c", daysAgo: Double.random(in: 0...created, using: &random))
            }
            // Every comment, and any edit since, moved `updated_at`; gitbay stamps a comment a
            // moment before the move.
            let newestComment = comments.map { Fixtures.now.timeIntervalSince($0.createdAt) / Fixtures.day }.min()
            let sinceEdit = Bool.random(using: &random) ? Double.random(in: 0...created, using: &random) : created
            let moved = min(sinceEdit, newestComment ?? created)
            let events = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                ItemActivity(
                    at: Fixtures.ago(days: Double.random(in: 0...created, using: &random)),
                    actor: people.randomElement(using: &random)!, kind: "issue.labeled", source: .feed, labels: [])
            }
            let issue = Fixtures.issue(
                comments: comments, createdAt: Fixtures.ago(days: created),
                updatedAt: Fixtures.ago(days: moved).addingTimeInterval(0.5))
            let full = Fixtures.context(issue, automation: ["ci-bot"], activity: events)
            let row = Fixtures.context(issue, known: rowOnly, automation: ["ci-bot"], activity: events)
            let exact = try #require(Fixtures.value("quiet", full))
            let range = try #require(Fixtures.registry.field("quiet", for: .issues)?.bounds?.range(row))
            guard case .duration(let value) = exact, case .duration(let lower) = range.lower,
                case .duration(let upper) = range.upper
            else {
                Issue.record("quiet is a duration: \(exact), \(range)")
                return
            }
            #expect(lower <= value && value <= upper, "\(issue) \(events)")
            for condition in conditions {
                guard let verdict = condition.decide(row) else { continue }
                decided += 1
                #expect(verdict == condition.decide(full), "\(issue) \(events)")
            }
        }
        #expect(decided > 400, "the ranges decide something: \(decided)")
    }
}

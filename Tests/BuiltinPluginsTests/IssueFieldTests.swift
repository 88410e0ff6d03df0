import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct IssueFieldTests {
    @Test func wireFieldsComeFromTheRow() {
        let context = Fixtures.context(Fixtures.issue(milestone: "v1.38.0"), known: [])
        #expect(Fixtures.value("number", context) == .count(188))
        #expect(Fixtures.value("title", context) == .text("Document the hook socket threat model"))
        #expect(Fixtures.value("state", context) == .text("open"))
        #expect(Fixtures.value("author", context) == .text("cmc"))
        #expect(Fixtures.value("milestone", context) == .text("v1.38.0"))
        #expect(Fixtures.value("created_at", context) == .timestamp(Fixtures.ago(days: 90)))
        #expect(Fixtures.value("age", context) == .duration(90 * Fixtures.day))
    }

    @Test func absentMilestoneAndUpdateTime() {
        let context = Fixtures.context(Fixtures.issue(milestone: nil, updatedAt: nil))
        #expect(Fixtures.value("milestone", context) == .absent)
        #expect(Fixtures.value("updated_at", context) == .absent)
        #expect(Fixtures.value("idle", context) == .absent)
    }

    @Test func idleIsMeasuredFromUpdatedAt() {
        let context = Fixtures.context(Fixtures.issue(state: .closed, updatedAt: Fixtures.ago(days: 61)))
        #expect(Fixtures.value("state", context) == .text("closed"))
        #expect(Fixtures.value("updated_at", context) == .timestamp(Fixtures.ago(days: 61)))
        #expect(Fixtures.value("idle", context) == .duration(61 * Fixtures.day))
    }

    @Test func anUpdateAheadOfTheClockIsNotNegative() {
        let context = Fixtures.context(Fixtures.issue(updatedAt: Fixtures.ago(days: -1)))
        #expect(Fixtures.value("idle", context) == .duration(0))
    }

    @Test func labelsAndAssigneesAreSortedSets() {
        let context = Fixtures.context(Fixtures.issue(labels: ["stale", "docs"], assignees: ["zoe", "alice"]))
        #expect(Fixtures.value("labels", context) == .set(["docs", "stale"]))
        #expect(Fixtures.value("assignees", context) == .set(["alice", "zoe"]))
    }

    @Test func commentsCountPeopleAndTheNewestIsNotASystemComment() {
        let issue = Fixtures.issue(comments: [
            Fixtures.comment("alice", "Still happens on 1.37.", daysAgo: 20),
            Fixtures.comment(Fixtures.me, "Marked stale.", daysAgo: 10),
            Fixtures.system("mentioned in a0b1c2d", daysAgo: 5),
            GitbayKit.Comment(author: "system", body: "closes #188 reverted", createdAt: Fixtures.ago(days: 4)),
        ])
        let context = Fixtures.context(issue)
        #expect(Fixtures.value("comments", context) == .count(2))
        #expect(Fixtures.value("last_comment.author", context) == .text(Fixtures.me))
        #expect(Fixtures.value("last_comment.at", context) == .timestamp(Fixtures.ago(days: 10)))
    }

    @Test func theNewestCommentIsChosenByTimeNotListOrder() {
        let issue = Fixtures.issue(comments: [
            Fixtures.comment("bob", "later", daysAgo: 1),
            Fixtures.comment("alice", "earlier", daysAgo: 3),
        ])
        #expect(Fixtures.value("last_comment.author", Fixtures.context(issue)) == .text("bob"))
    }

    @Test func noCommentsMeansAbsentLastComment() {
        let context = Fixtures.context(Fixtures.issue(comments: [Fixtures.system("mentioned", daysAgo: 2)]))
        #expect(Fixtures.value("comments", context) == .count(0))
        #expect(Fixtures.value("last_comment.author", context) == .absent)
        #expect(Fixtures.value("last_comment.at", context) == .absent)
    }

    @Test(arguments: [
        (DependencyStatus(enabled: true, issueNumber: 188), true),
        (DependencyStatus(enabled: true, issueNumber: 12), false),
        (DependencyStatus(enabled: true), false),
        (DependencyStatus(enabled: false, issueNumber: 188), false),
    ])
    func trackingIssueIsTheCheckersIssueWhileItIsOn(status: DependencyStatus, expected: Bool) {
        let context = Fixtures.context(Fixtures.issue(), dependencies: status)
        #expect(Fixtures.value("tracking_issue", context) == .boolean(expected))
    }

    @Test func trackingIssueIsFalseWithoutAChecker() {
        #expect(Fixtures.value("tracking_issue", Fixtures.context(Fixtures.issue())) == .boolean(false))
    }

    @Test func issueFieldsAreAbsentOnAnotherKindOfItem() {
        let build = Fixtures.build(1, sha: Fixtures.sha("aa"))
        let context = Fixtures.context(build, in: Fixtures.buildRepository(builds: [build]))
        for field in Fixtures.registry.fields(for: .issues) {
            #expect(field.value(context) == .absent, "\(field.name)")
        }
    }
}

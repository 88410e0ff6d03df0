import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct MergeRequestTests {
    private func action(_ name: String) throws -> ActionDefinition {
        try #require(Fixtures.action(name, .mergeRequests))
    }

    private let parentMerged = Fixtures.mergeRequest(
        number: 159, state: .merged, draft: false, source: "stack-1-reaper")

    @Test func wireFieldsComeFromTheRow() {
        let mr = Fixtures.mergeRequest(
            labels: ["ci", "area/runner"], stackedOn: MergeRequestRef(number: 159, title: "ci: reap"))
        let context = Fixtures.context(mr)
        #expect(Fixtures.value("number", context) == .count(160))
        #expect(Fixtures.value("title", context) == .text("runners: attach keys per repository"))
        #expect(Fixtures.value("state", context) == .text("open"))
        #expect(Fixtures.value("author", context) == .text("cmc"))
        #expect(Fixtures.value("source", context) == .text("stack-2-runners"))
        #expect(Fixtures.value("target_ref", context) == .text("main"))
        #expect(Fixtures.value("head_sha", context) == .text(Fixtures.sha("9f")))
        #expect(Fixtures.value("milestone", context) == .absent)
        #expect(Fixtures.value("created_at", context) == .timestamp(Fixtures.ago(days: 30)))
        #expect(Fixtures.value("draft", context) == .boolean(true))
        #expect(Fixtures.value("labels", context) == .set(["area/runner", "ci"]))
        #expect(Fixtures.value("stacked_on", context) == .count(159))
        #expect(Fixtures.value("checks", context) == .text("none"))
        #expect(Fixtures.value("queued", context) == .boolean(false))
        #expect(Fixtures.value("idle", context) == .absent)
        #expect(Fixtures.value("stacked_on", Fixtures.context(Fixtures.mergeRequest())) == .absent)
    }

    @Test func stackFieldsReportTheLandedParent() {
        let landed = Fixtures.context(
            Fixtures.mergeRequest(comments: [Fixtures.system(Fixtures.retargeted, daysAgo: 1)]), others: [parentMerged])
        #expect(Fixtures.value("stack.landed", landed) == .boolean(true))
        #expect(Fixtures.value("stack.parent", landed) == .count(159))
        let stacked = Fixtures.context(Fixtures.mergeRequest(targetRef: "stack-1-reaper"))
        #expect(Fixtures.value("stack.landed", stacked) == .boolean(false))
        #expect(Fixtures.value("stack.parent", stacked) == .absent)
    }

    @Test func checksQueuedAndIdle() {
        let queue = QueuedMerge(by: "cmc", strategy: "ff", queuedAt: Fixtures.ago(days: 1))
        let context = Fixtures.context(
            Fixtures.mergeRequest(checksCombined: .failure, queued: queue, updatedAt: Fixtures.ago(days: 2)))
        #expect(Fixtures.value("checks", context) == .text("failure"))
        #expect(Fixtures.value("queued", context) == .boolean(true))
        #expect(Fixtures.value("idle", context) == .duration(2 * Fixtures.day))
    }

    @Test func approvalsCountEachReviewersNewestCountingFreshApproval() {
        func review(
            _ who: String, _ verdict: ReviewVerdict, stale: Bool = false, counts: Bool? = true, daysAgo: Double
        )
            -> Review
        {
            Review(
                reviewer: who, verdict: verdict, stale: stale, counts: counts, createdAt: Fixtures.ago(days: daysAgo))
        }
        let reviews = [
            review("alice", .approve, daysAgo: 3),
            review("alice", .approve, daysAgo: 2),
            review("bob", .approve, daysAgo: 3),
            review("bob", .requestChanges, daysAgo: 1),
            review("carol", .approve, stale: true, daysAgo: 3),
            review("dave", .approve, counts: false, daysAgo: 3),
            review("erin", .approve, counts: nil, daysAgo: 3),
            review("frank", .comment, daysAgo: 3),
        ]
        #expect(Fixtures.value("approvals", Fixtures.context(Fixtures.mergeRequest(reviews: reviews))) == .count(2))
    }

    @Test func readyRendersMrReadyAndIsDoneOnAReadyMergeRequest() throws {
        let draft = Fixtures.context(Fixtures.mergeRequest(draft: true))
        #expect(try action("ready").command(Fixtures.request(), draft).argv == ["mr", "ready", "krz/gitbay", "160"])
        #expect(try !action("ready").isDone(Fixtures.request(), draft))
        #expect(try action("ready").isDone(Fixtures.request(), Fixtures.context(Fixtures.mergeRequest(draft: false))))
    }

    @Test func readyOncePerLandingRespectsARedraft() throws {
        let readied = Fixtures.mergeRequest(
            draft: true,
            comments: [
                Fixtures.system(Fixtures.retargeted, daysAgo: 2),
                Fixtures.comment(Fixtures.me, "!159 merged, so this one is ready.\n" + Fixtures.marker, daysAgo: 1),
            ])
        #expect(try action("ready").isDone(Fixtures.request(), Fixtures.context(readied, others: [parentMerged])))
    }

    @Test func aMarkerFromAnEarlierLandingDoesNotCount() throws {
        let relanded = Fixtures.mergeRequest(
            draft: true,
            comments: [
                Fixtures.system("retargeted from stack-0-base to stack-1-reaper: !158 merged", daysAgo: 5),
                Fixtures.comment(Fixtures.me, "!158 merged.\n" + Fixtures.marker, daysAgo: 4),
                Fixtures.system(Fixtures.retargeted, daysAgo: 1),
            ])
        #expect(try !action("ready").isDone(Fixtures.request(), Fixtures.context(relanded, others: [parentMerged])))
    }

    @Test func readyWarnsOfAQueuedMergeAndRefusesAClosedOne() throws {
        let queue = QueuedMerge(by: "cmc", queuedAt: Fixtures.ago(days: 1))
        let queued = Fixtures.context(Fixtures.mergeRequest(queued: queue))
        #expect(try action("ready").warning(queued) == "mr ready starts the queued merge of !160 at once")
        #expect(try action("ready").warning(Fixtures.context(Fixtures.mergeRequest())) == nil)
        #expect(try action("ready").refusal(Fixtures.context(Fixtures.mergeRequest())) == nil)
        #expect(try action("ready").refusal(Fixtures.context(Fixtures.mergeRequest(state: .sourceGone))) == nil)
        #expect(
            try action("ready").refusal(Fixtures.context(Fixtures.mergeRequest(state: .merged)))
                == "!160 is merged; only an open merge request can be marked ready")
    }

    @Test func noActionRetargets() {
        let names = Fixtures.registry.actions(for: .mergeRequests).map(\.name)
        #expect(
            names == [
                "add-label", "close", "comment", "draft", "merge", "react", "ready", "remove-label", "set-status",
            ])
    }

    @Test func draftAndClose() throws {
        let ready = Fixtures.context(Fixtures.mergeRequest(draft: false))
        #expect(try action("draft").command(Fixtures.request(), ready).argv == ["mr", "draft", "krz/gitbay", "160"])
        #expect(try !action("draft").isDone(Fixtures.request(), ready))
        #expect(try action("draft").isDone(Fixtures.request(), Fixtures.context(Fixtures.mergeRequest(draft: true))))
        #expect(try action("close").command(Fixtures.request(), ready).argv == ["mr", "close", "krz/gitbay", "160"])
        #expect(try !action("close").isDone(Fixtures.request(), ready))
        for state in [MergeRequestState.closed, .merged] {
            #expect(
                try action("close").isDone(Fixtures.request(), Fixtures.context(Fixtures.mergeRequest(state: state))))
        }
    }

    @Test func labelsChangeOnlyWhatDiffers() throws {
        let context = Fixtures.context(Fixtures.mergeRequest(labels: ["ci"]))
        let request = Fixtures.request(.names(["ci", "stacked"]))
        #expect(
            try action("add-label").command(request, context).argv == [
                "mr", "label", "krz/gitbay", "160", "--add", "stacked",
            ])
        #expect(
            try action("remove-label").command(request, context).argv == [
                "mr", "label", "krz/gitbay", "160", "--remove", "ci",
            ])
        #expect(try action("add-label").isDone(Fixtures.request(.names(["ci"])), context))
        #expect(try action("remove-label").isDone(Fixtures.request(.names(["stacked"])), context))
    }

    @Test func commentFollowsTheMarkerRule() throws {
        let spoken = Fixtures.mergeRequest(comments: [
            Fixtures.comment(Fixtures.me, "ready.\n" + Fixtures.marker, daysAgo: 1)
        ])
        let answered = Fixtures.mergeRequest(
            comments: spoken.comments + [Fixtures.comment("cmc", "thanks", daysAgo: 0.5)])
        let request = Fixtures.request(.text("!159 merged, so this one is ready for review."))
        let command = try action("comment").command(request, Fixtures.context(spoken))
        #expect(command.argv == ["mr", "comment", "krz/gitbay", "160", "--file", "-"])
        #expect(command.stdin == "!159 merged, so this one is ready for review.\n" + Fixtures.marker)
        #expect(try action("comment").isDone(request, Fixtures.context(spoken)))
        #expect(try !action("comment").isDone(request, Fixtures.context(answered)))
        #expect(try !action("comment").isDone(request, Fixtures.context(Fixtures.mergeRequest())))
    }
}

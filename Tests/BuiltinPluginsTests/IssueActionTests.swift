import BuildsPlugin
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

@Suite struct IssueActionTests {
    private func action(_ name: String) throws -> ActionDefinition {
        try #require(Fixtures.action(name, .issues))
    }

    @Test func addLabelRendersOnlyTheMissingLabels() throws {
        let context = Fixtures.context(Fixtures.issue(labels: ["docs", "stale"]))
        let request = Fixtures.request(.names(["stale", "needs-info", "needs-info", "triage"]))
        let command = try action("add-label").command(request, context)
        #expect(command.argv == ["issue", "label", "krz/gitbay", "188", "--add", "needs-info", "--add", "triage"])
        #expect(command.effect == .write)
        #expect(command.stdin == nil)
        #expect(try !action("add-label").isDone(request, context))
    }

    @Test func addingAPresentLabelIsDone() throws {
        let context = Fixtures.context(Fixtures.issue(labels: ["stale"]))
        #expect(try action("add-label").isDone(Fixtures.request(.names(["stale"])), context))
    }

    @Test func removeLabelRendersOnlyThePresentLabels() throws {
        let context = Fixtures.context(Fixtures.issue(labels: ["stale", "docs"]))
        let request = Fixtures.request(.names(["stale", "pinned"]))
        #expect(
            try action("remove-label").command(request, context).argv == [
                "issue", "label", "krz/gitbay", "188", "--remove", "stale",
            ])
        #expect(try !action("remove-label").isDone(request, context))
    }

    @Test func removingAnAbsentLabelIsDone() throws {
        let context = Fixtures.context(Fixtures.issue(labels: ["docs"]))
        #expect(try action("remove-label").isDone(Fixtures.request(.names(["stale"])), context))
    }

    @Test func commentSendsTheTextAndTheMarkerOnStdin() throws {
        let context = Fixtures.context(Fixtures.issue())
        let command = try action("comment").command(Fixtures.request(.text("Idle for 70d; closing in 14d.")), context)
        #expect(command.argv == ["issue", "comment", "krz/gitbay", "188", "--file", "-"])
        #expect(command.stdin == "Idle for 70d; closing in 14d.\n" + Fixtures.marker)
        let block = try action("comment").command(Fixtures.request(.text("Idle.\n")), context)
        #expect(block.stdin == "Idle.\n" + Fixtures.marker)
    }

    @Test func aMarkedCommentWithNoLaterHumanCommentIsDone() throws {
        let issue = Fixtures.issue(comments: [
            Fixtures.comment("alice", "Any news?", daysAgo: 30),
            Fixtures.comment(Fixtures.me, "Idle.\n" + Fixtures.marker, daysAgo: 10),
            Fixtures.comment(Fixtures.me, "Another rule speaking.", daysAgo: 9),
            Fixtures.system("mentioned in a0b1c2d", daysAgo: 8),
        ])
        #expect(try action("comment").isDone(Fixtures.request(.text("Idle.")), Fixtures.context(issue)))
    }

    @Test func aLaterHumanCommentStartsANewEpisode() throws {
        let issue = Fixtures.issue(comments: [
            Fixtures.comment(Fixtures.me, "Idle.\n" + Fixtures.marker, daysAgo: 80),
            Fixtures.comment("alice", "Still relevant.", daysAgo: 75),
        ])
        #expect(try !action("comment").isDone(Fixtures.request(.text("Idle.")), Fixtures.context(issue)))
    }

    /// A maintainer who removed the stale label after the notice answered it.
    ///
    /// The next episode gets a notice of its own. An unexplained move of `updated_at` may be the
    /// bot's own, so it never makes the bot post again.
    @Test func aPersonsEventAfterTheNoticeStartsANewEpisode() throws {
        let issue = Fixtures.issue(
            comments: [Fixtures.comment(Fixtures.me, "Idle.\n" + Fixtures.marker, daysAgo: 80)],
            updatedAt: Fixtures.ago(days: 5))
        let request = Fixtures.request(.text("Idle."))
        #expect(try action("comment").isDone(request, Fixtures.context(issue)))
        let removal = ItemActivity(
            at: Fixtures.ago(days: 70), actor: "maintainer", kind: "issue.labeled", source: .feed, labels: [])
        #expect(try !action("comment").isDone(request, Fixtures.context(issue, activity: [removal])))
        let own = ItemActivity(at: Fixtures.ago(days: 70), actor: Fixtures.me, kind: "issue.labeled", source: .feed)
        #expect(try action("comment").isDone(request, Fixtures.context(issue, activity: [own])))
    }

    @Test func theMarkerCountsOnlyInTheBotsOwnComments() throws {
        let issue = Fixtures.issue(comments: [Fixtures.comment("alice", "quoting " + Fixtures.marker, daysAgo: 3)])
        #expect(try !action("comment").isDone(Fixtures.request(.text("Idle.")), Fixtures.context(issue)))
        #expect(try !action("comment").isDone(Fixtures.request(.text("Idle.")), Fixtures.context(Fixtures.issue())))
    }

    @Test func closeAndReopenFollowTheState() throws {
        let open = Fixtures.context(Fixtures.issue(state: .open))
        let closed = Fixtures.context(Fixtures.issue(state: .closed))
        #expect(try action("close").command(Fixtures.request(), open).argv == ["issue", "close", "krz/gitbay", "188"])
        #expect(
            try action("reopen").command(Fixtures.request(), closed).argv == ["issue", "reopen", "krz/gitbay", "188"])
        #expect(try !action("close").isDone(Fixtures.request(), open))
        #expect(try action("close").isDone(Fixtures.request(), closed))
        #expect(try action("reopen").isDone(Fixtures.request(), open))
        #expect(try !action("reopen").isDone(Fixtures.request(), closed))
    }

    @Test func assignAndUnassignChangeOnlyWhatDiffers() throws {
        let context = Fixtures.context(Fixtures.issue(assignees: ["alice"]))
        let both = Fixtures.request(.names(["alice", Fixtures.me]))
        #expect(
            try action("assign").command(both, context).argv == [
                "issue", "assign", "krz/gitbay", "188", "--add", Fixtures.me,
            ])
        #expect(
            try action("unassign").command(both, context).argv == [
                "issue", "assign", "krz/gitbay", "188", "--remove", "alice",
            ])
        #expect(try !action("assign").isDone(both, context))
        #expect(try action("assign").isDone(Fixtures.request(.names(["alice"])), context))
        #expect(try action("unassign").isDone(Fixtures.request(.names(["bob"])), context))
    }

    @Test func milestoneSetsClearsAndIsDoneWhenEqual() throws {
        let without = Fixtures.context(Fixtures.issue(milestone: nil))
        let with = Fixtures.context(Fixtures.issue(milestone: "v1.38.0"))
        let set = Fixtures.request(.milestone("v1.38.0"))
        let clear = Fixtures.request(.milestone(nil))
        #expect(
            try action("milestone").command(set, without).argv == [
                "issue", "milestone", "krz/gitbay", "188", "v1.38.0",
            ])
        #expect(
            try action("milestone").command(clear, with).argv == ["issue", "milestone", "krz/gitbay", "188", "none"])
        #expect(try !action("milestone").isDone(set, without))
        #expect(try action("milestone").isDone(set, with))
        #expect(try action("milestone").isDone(clear, without))
        #expect(try !action("milestone").isDone(clear, with))
    }

    @Test func issueActionsNeverRefuseOrWarn() throws {
        let context = Fixtures.context(Fixtures.issue())
        for definition in Fixtures.registry.actions(for: .issues) {
            #expect(definition.refusal(context) == nil, "\(definition.name)")
            #expect(definition.warning(context) == nil, "\(definition.name)")
        }
    }
}

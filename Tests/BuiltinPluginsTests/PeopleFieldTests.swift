import Foundation
import GitbayKit
import RuleEngine
import Testing

/// `quiet`, `last_person_comment.*`, `waiting_on` and `my_last_comment.age`: people, not the bot
/// or the accounts `bots:` names.
@Suite struct PeopleFieldTests {
    private let ci: Set<String> = ["ci-bot"]

    @Test func automationsCommentsDoNotCountAPersonsDo() {
        let issue = Fixtures.issue(
            author: "cmc",
            comments: [
                Fixtures.comment("alice", "seen on main", daysAgo: 80),
                Fixtures.comment(Fixtures.me, "stale notice", daysAgo: 20),
                Fixtures.comment("ci-bot", "nightly passed", daysAgo: 2),
                Fixtures.system("labelled", daysAgo: 1),
            ], updatedAt: Fixtures.ago(days: 2))
        let context = Fixtures.context(issue, automation: ci)
        #expect(Fixtures.value("quiet", context) == .duration(80 * Fixtures.day))
        #expect(Fixtures.value("last_person_comment.author", context) == .text("alice"))
        #expect(Fixtures.value("last_person_comment.at", context) == .timestamp(Fixtures.ago(days: 80)))
        #expect(Fixtures.value("waiting_on", context) == .text("author"))
        #expect(Fixtures.value("my_last_comment.age", context) == .duration(20 * Fixtures.day))
        // Without `bots:`, CI is a person like any other.
        let plain = Fixtures.context(issue)
        #expect(Fixtures.value("quiet", plain) == .duration(2 * Fixtures.day))
        #expect(Fixtures.value("last_person_comment.author", plain) == .text("ci-bot"))
    }

    @Test func withNoPersonsCommentTheClockStartsAtCreationAndWaitsOnOthers() {
        let issue = Fixtures.issue(
            author: "cmc", comments: [Fixtures.comment(Fixtures.me, "notice", daysAgo: 3)],
            createdAt: Fixtures.ago(days: 90), updatedAt: Fixtures.ago(days: 3))
        let context = Fixtures.context(issue)
        #expect(Fixtures.value("quiet", context) == .duration(90 * Fixtures.day))
        #expect(Fixtures.value("last_person_comment.author", context) == .absent)
        #expect(Fixtures.value("last_person_comment.at", context) == .absent)
        #expect(Fixtures.value("waiting_on", context) == .text("others"))
        let silent = Fixtures.context(Fixtures.issue(comments: []))
        #expect(Fixtures.value("my_last_comment.age", silent) == .absent)
    }

    /// gitbay moves `updated_at` on edits, closing and reopening without saying who: a move no
    /// comment, event or journal entry explains is taken for a person's, so a stale rule waits.
    @Test func aMoveOfUpdatedAtNothingExplainsIsAPersonsActivity() {
        let edited = Fixtures.issue(comments: [], createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 10))
        #expect(Fixtures.value("quiet", Fixtures.context(edited)) == .duration(10 * Fixtures.day))
        // The bot's own notice moved it: explained, so the clock stays at creation.
        let noticed = Fixtures.issue(
            comments: [Fixtures.comment(Fixtures.me, "notice", daysAgo: 10)], createdAt: Fixtures.ago(days: 200),
            updatedAt: Fixtures.ago(days: 10) + 0.4)
        #expect(Fixtures.value("quiet", Fixtures.context(noticed)) == .duration(200 * Fixtures.day))
        // An event of the bot's own at that moment explains it too; a person's counts for itself.
        let closedByBot = ItemActivity(
            at: Fixtures.ago(days: 10) + 1, actor: Fixtures.me, kind: "issue.open", source: .feed)
        #expect(
            Fixtures.value("quiet", Fixtures.context(edited, activity: [closedByBot]))
                == .duration(200 * Fixtures.day))
        let never = Fixtures.issue(comments: [], createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 200))
        #expect(Fixtures.value("quiet", Fixtures.context(never)) == .duration(200 * Fixtures.day))
    }

    /// A person removing a label (the feed names them) acted on the issue, though `updated_at`
    /// did not move; the bot's and a `bots:` account's events do not count.
    @Test func aPersonsLabelEventIsActivityAndAutomationsIsNot() {
        let issue = Fixtures.issue(comments: [], createdAt: Fixtures.ago(days: 200), updatedAt: Fixtures.ago(days: 200))
        let person = ItemActivity(
            at: Fixtures.ago(days: 4), actor: "maintainer", kind: "issue.labeled", source: .feed, labels: [])
        #expect(Fixtures.value("quiet", Fixtures.context(issue, activity: [person])) == .duration(4 * Fixtures.day))
        let automation = [
            ItemActivity(at: Fixtures.ago(days: 4), actor: Fixtures.me, kind: "issue.labeled", source: .feed),
            ItemActivity(at: Fixtures.ago(days: 3), actor: "ci-bot", kind: "issue.labeled", source: .feed),
        ]
        #expect(
            Fixtures.value("quiet", Fixtures.context(issue, automation: ci, activity: automation))
                == .duration(200 * Fixtures.day))
    }

    @Test func theAuthorSpeakingLastWaitsOnOthers() {
        let issue = Fixtures.issue(
            author: "cmc",
            comments: [
                Fixtures.comment("alice", "can you rebase?", daysAgo: 5), Fixtures.comment("cmc", "done", daysAgo: 4),
            ])
        #expect(Fixtures.value("waiting_on", Fixtures.context(issue)) == .text("others"))
    }

    /// A review is a person's turn on a merge request: a reviewer asking for changes waits on the
    /// author, and resets `quiet`; a bot's review does neither.
    @Test func aReviewIsAPersonsTurnOnAMergeRequest() {
        let mr = Fixtures.mergeRequest(
            comments: [Fixtures.comment("cmc", "ready for a look", daysAgo: 10)],
            reviews: [
                Review(reviewer: "alice", verdict: .requestChanges, createdAt: Fixtures.ago(days: 6)),
                Review(reviewer: "ci-bot", verdict: .approve, createdAt: Fixtures.ago(days: 1)),
            ])
        let context = Fixtures.context(mr, automation: ci)
        #expect(Fixtures.value("quiet", context) == .duration(6 * Fixtures.day))
        #expect(Fixtures.value("waiting_on", context) == .text("author"))
        #expect(Fixtures.value("last_person_comment.author", context) == .text("cmc"))
    }
}

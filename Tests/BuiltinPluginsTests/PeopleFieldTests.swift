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
            ])
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
            createdAt: Fixtures.ago(days: 90))
        let context = Fixtures.context(issue)
        #expect(Fixtures.value("quiet", context) == .duration(90 * Fixtures.day))
        #expect(Fixtures.value("last_person_comment.author", context) == .absent)
        #expect(Fixtures.value("last_person_comment.at", context) == .absent)
        #expect(Fixtures.value("waiting_on", context) == .text("others"))
        let silent = Fixtures.context(Fixtures.issue(comments: []))
        #expect(Fixtures.value("my_last_comment.age", silent) == .absent)
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

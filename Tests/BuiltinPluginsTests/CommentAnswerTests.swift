import Foundation
import GitbayKit
import Testing

@testable import RuleEngine

/// One answer per comment (``CommentAnswer``): every command of it done or answered, its refusals
/// one reply, and refusals a budget of their own that no guard counts.
extension CommandEvaluationTests {
    /// The issue `number` carrying `comments`, updated a minute ago.
    private func issue(_ number: Int, _ comments: [GitbayKit.Comment], author: String = "cmc") -> GitbayKit.Issue {
        Fixtures.issue(
            number: number, author: author, comments: comments, updatedAt: Fixtures.now.addingTimeInterval(-60))
    }

    @Test func everyCopyOfACommandIsDoneAndTheCommentAcknowledgedOnceAfterThem() throws {
        let plan = try plan([recent([said("maria", "/label bug\nAnd also:\n/label ui", id: 40)])])
        #expect(plan.entries.map(\.rule) == ["label-command", "label-command"])
        #expect(
            plan.entries.map { $0.actions.map { $0.command?.argv.last ?? "" } } == [["bug"], ["ui", "+1"]],
            "both labels, one 👍 after both")
    }

    @Test func aCommentGivingMoreCommandsThanOneAnswerTakesGetsOneReplyAndNothingElse() throws {
        let lines = (1...50).map { "/label l\($0)" }.joined(separator: "\n")
        let plan = try plan([recent([said("maria", lines, id: 41)])])
        #expect(plan.entries.count == 50)
        let actions = plan.entries.flatMap(\.actions)
        #expect(actions.map(\.action) == ["comment"], "one reply, no label, no 👍")
        let body = try #require(actions.first?.command?.stdin)
        #expect(
            body.hasPrefix(
                "@maria: none of the 50 commands of this comment was done: the comment gives 50 commands, more "
                    + "than the 10 the bot takes from one comment."), "\(body)")
        #expect(plan.guards.isEmpty)
    }

    /// Fifteen outsiders' `/label x` on 58 issues: no tripwire, a writer's `/label bug` done in the
    /// same run, and at most a run's replies sent, the rest said to wait without holding the run.
    @Test func outsidersCannotTripTheTripwireNorHoldAWritersCommand() throws {
        var issues = (1...58).map { number in
            issue(number, number <= 15 ? [said("outsider\(number)", "/label x", id: 100 + number)] : [])
        }
        issues[57] = issue(58, [said("maria", "/label bug", id: 200)])
        let plan = try plan(issues, options: EvaluationOptions(maxActions: 5))
        #expect(plan.guards.isEmpty, "\(plan.guards)")
        let writer = try #require(plan.entries.first { $0.command?.author == "maria" })
        #expect(writer.actions.map(\.status) == [.pending, .pending])
        let replies = plan.entries.filter { $0.isRefusal && $0.hasPendingActions }
        #expect(replies.count == 10, "a run's replies, whatever --max-actions is")
        #expect(plan.entries.filter(\.isRefusal).count == 15)
        #expect(plan.entries.allSatisfy { !$0.hasHeldActions })
        #expect(plan.notes == ["5 refused comments wait for a reply: at most 10 a run"])
    }

    /// One reply a person a day on an item: a second refused comment within the day is passed
    /// over (its entry says so and sends nothing), one a day later is answered.
    @Test func aPersonRefusedOnAnItemIsToldOnceADay() throws {
        let told = GitbayKit.Comment(
            author: Fixtures.me,
            body: "@drive-by: `/label bug` was not done: no.\n"
                + "<!-- gitbay-bot:rule=label-command item=krz/gitbay#188 command=50 -->",
            createdAt: Fixtures.now.addingTimeInterval(-7_200), kind: .comment, id: 51)
        let first = said("drive-by", "/label bug", id: 50)
        var again = said("drive-by", "/label ui", id: 52)
        let quiet = try plan([recent([first, told, again])])
        let entry = try #require(quiet.entries.first)
        #expect(quiet.entries.count == 1 && entry.actions.isEmpty, "\(quiet.entries)")
        #expect(entry.reasons.first?.observed.contains("not answered: @drive-by was told on this item at") == true)
        again = GitbayKit.Comment(
            author: "drive-by", body: "/label ui", createdAt: Fixtures.now.addingTimeInterval(-60), kind: .comment,
            id: 52)
        var earlier = told
        earlier.createdAt = Fixtures.ago(days: 2)
        #expect(try plan([recent([first, earlier, again])]).entries.first?.actions.map(\.action) == ["comment"])
    }

    /// The daily budget silences only comments refused whole: beside a command carried out (and
    /// the 👍 it brings, which alone would read as all done), a refusal is always replied to.
    @Test func aRefusalBesideACommandCarriedOutIsAnsweredWhateverTheBudget() throws {
        let told = GitbayKit.Comment(
            author: Fixtures.me,
            body: "@cmc: `/label bug` was not done: no.\n"
                + "<!-- gitbay-bot:rule=label-command item=krz/gitbay#188 command=50 -->",
            createdAt: Fixtures.now.addingTimeInterval(-7_200), kind: .comment, id: 51)
        let mixed = said("cmc", "/close\n/label ui", id: 52)
        let plan = try plan([recent([said("cmc", "/label bug", id: 50), told, mixed])])
        let actions = plan.entries.flatMap(\.actions)
        #expect(actions.map(\.action).sorted() == ["close", "comment", "react"], "\(plan.entries)")
        let reply = try #require(actions.first { $0.action == "comment" }?.command?.stdin)
        #expect(reply.hasPrefix("@cmc: `/label ui` was not done: only those who may write"), "\(reply)")
    }

    /// An outsider's comment refused by two rules gets one reply that carries both rules'
    /// markers, so neither rule answers it again.
    @Test func theRefusalsOfOneCommentAreOneReply() throws {
        let comment = said("drive-by", "/label bug\n/close", id: 60)
        let plan = try plan([recent([comment])])
        #expect(plan.entries.map(\.rule) == ["label-command", "close-command"])
        let actions = plan.entries.flatMap(\.actions)
        #expect(actions.map(\.action) == ["comment"])
        let body = try #require(actions.first?.command?.stdin)
        #expect(body.hasPrefix("@drive-by: these commands were not done:\n- `/label bug`: only"), "\(body)")
        #expect(body.contains("rule=label-command item=krz/gitbay#188 command=60"))
        #expect(body.contains("rule=close-command item=krz/gitbay#188 command=60"))
        let replied = GitbayKit.Comment(
            author: Fixtures.me, body: body, createdAt: Fixtures.now, kind: .comment, id: 61)
        #expect(try self.plan([recent([comment, replied])]).entries.isEmpty, "answered for both rules")
    }

    /// A refused command is nothing a rule needs to wait for: a rule without a command acts on
    /// the item all the same, where a writer's command holds it for a run.
    @Test func anOutsidersCommandHoldsNoOtherRule() throws {
        let rules = try ruleSet(
            Self.rules + """

                  - name: greet
                    on: issues
                    when: [state = open]
                    do:
                      - add-label: triage
                """)
        let refused = try plan([recent([said("drive-by", "/label bug", id: 70)])], rules: rules)
        #expect(refused.entries.first { $0.rule == "greet" }?.hasPendingActions == true)
        let asked = try plan([recent([said("maria", "/label bug", id: 71)])], rules: rules)
        #expect(asked.entries.first { $0.rule == "greet" }?.hasHeldActions == true)
    }
}

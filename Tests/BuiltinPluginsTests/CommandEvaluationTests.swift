import BuiltinPlugins
import Foundation
import GitbayKit
import IssuesPlugin
import MergeRequestsPlugin
import Testing
import YAML

@testable import RuleEngine

/// Commands in comments through the evaluator: who may give them, what answers them, and that each
/// is answered once.
@Suite struct CommandEvaluationTests {
    static let rules = """
        scope: repo:krz/gitbay
        rules:
          - name: label-command
            on: issues
            command: /label <labels:label>...
            allowed: [writers]
            when: [state = open]
            do:
              - add-label: "{{ command.labels }}"
          - name: close-command
            on: issues
            command: /close
            allowed: [author]
            when: [state = open, labels lacks pinned]
            do: [close]
        """

    func ruleSet(_ text: String = rules) throws -> [Rule] {
        let loaded = RuleSet.load(files: [(path: "rules.yml", bytes: Array(text.utf8))], registry: Fixtures.registry)
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)")
        return loaded.rules
    }

    /// A person's comment with an id, an hour old.
    func said(_ author: String, _ body: String, id: Int, reactions: [ReactionCount] = []) -> GitbayKit.Comment {
        GitbayKit.Comment(
            author: author, body: body, createdAt: Fixtures.now.addingTimeInterval(-3_600), kind: .comment, id: id,
            reactions: reactions)
    }

    func plan(
        _ issues: [GitbayKit.Issue], writers: Set<String>? = ["maria"], activity: [ItemActivity] = [],
        rules: [Rule]? = nil, options: EvaluationOptions = EvaluationOptions()
    ) throws -> Plan {
        Evaluator(registry: Fixtures.registry, options: options).plan(
            rules: try rules ?? ruleSet(), state: state(issues, writers: writers, activity: activity), source: "test")
    }

    /// The forge of `issues`, every need known, gitbay telling `writers`.
    func state(
        _ issues: [GitbayKit.Issue], writers: Set<String>? = ["maria"], activity: [ItemActivity] = []
    ) -> ForgeState {
        let known = Set(Fixtures.registry.needs)
        var repository = RepositoryState(path: Fixtures.path, defaultBranch: "main", known: known)
        repository.issues = issues.map { IssueRecord(issue: $0, known: known) }
        repository.writers = writers.map { CommandWriters(accounts: $0, source: .gitbay) }
        for issue in issues where !activity.isEmpty {
            repository.activity[ItemActivityKey(kind: .issues, number: issue.number)] = activity
        }
        return ForgeState(now: Fixtures.now, me: Fixtures.me, repositories: [repository])
    }

    /// `explain` of a command rule: matched by the command it answers, shown with its giver and
    /// arguments, and not matched where no command waits, with no action whose template is unfilled.
    @Test func explainShowsTheCommandWithItsArgumentsOrSaysNoneWaits() throws {
        let issue = recent([said("maria", "/label bug", id: 17)])
        let reference = try #require(Fixtures.registry.reference(parsing: "\(Fixtures.path)#\(issue.number)"))
        let explanation = try #require(
            Evaluator(registry: Fixtures.registry).explanation(
                of: reference, rules: ruleSet(), state: state([issue]), source: "test"))
        let label = try #require(explanation.rules.first { $0.name == "label-command" })
        #expect(label.verdict == .matched)
        #expect(label.commands?.map(\.summary) == ["/label bug by @maria (comment 17; labels: bug)"])
        #expect(label.conditions.first?.observed == "/label bug by @maria (comment 17; labels: bug)")
        #expect(label.actions.compactMap { $0.command?.argv.last } == ["bug", "+1"])
        let close = try #require(explanation.rules.first { $0.name == "close-command" })
        #expect(close.verdict == .notMatched)
        #expect(close.actions.isEmpty, "\(close.actions)")
        #expect(close.nearestMiss?.observed == "none unanswered in people's comments of the last 3 days")
    }

    func recent(
        _ comments: [GitbayKit.Comment], labels: [String] = [], author: String = "cmc"
    )
        -> GitbayKit.Issue
    {
        Fixtures.issue(
            author: author, labels: labels, comments: comments, updatedAt: Fixtures.now.addingTimeInterval(-60))
    }

    @Test func aWritersCommandActsThenAcknowledgesItsComment() throws {
        let plan = try plan([recent([said("maria", "Looks like one.\n/label bug \"good first issue\"", id: 17)])])
        let entry = try #require(plan.entries.first)
        #expect(plan.entries.count == 1)
        #expect(
            entry.command?.summary
                == "/label bug \"good first issue\" by @maria (comment 17; labels: bug, good first issue)")
        #expect(entry.command?.arguments == ["labels": ["bug", "good first issue"]])
        #expect(entry.reasons.first?.observed == entry.command?.summary)
        #expect(
            entry.actions.map { $0.command?.argv ?? [] } == [
                ["issue", "label", "krz/gitbay", "188", "--add", "bug", "--add", "good first issue"],
                ["issue", "react", "krz/gitbay", "188", "--comment", "17", "+1"],
            ])
    }

    @Test func someoneWithoutPermissionGetsOnlyAReplyThatSaysWhy() throws {
        let plan = try plan([recent([said("drive-by", "/label bug", id: 18)])])
        let entry = try #require(plan.entries.first)
        #expect(entry.actions.map(\.action) == ["comment"])
        let body = try #require(entry.actions.first?.command?.stdin)
        #expect(
            body.hasPrefix("@drive-by: `/label bug` was not done: only those who may write to krz/gitbay may give it."))
        #expect(body.contains("<!-- gitbay-bot:rule=label-command item=krz/gitbay#188 command=18 -->"))
        #expect(entry.precondition == .all([]), "a refusal is sent whatever the conditions say by then")
    }

    @Test func unknownWritersRefuseAndSaySo() throws {
        let plan = try plan([recent([said("maria", "/label bug", id: 19)])], writers: nil)
        let body = try #require(plan.entries.first?.actions.first?.command?.stdin)
        #expect(body.contains("(the bot could not tell who may write to krz/gitbay)"))
    }

    @Test func aFailingConditionIsTheReplysReason() throws {
        let plan = try plan([recent([said("cmc", "/close", id: 20)], labels: ["pinned"])])
        let body = try #require(plan.entries.first?.actions.first?.command?.stdin)
        #expect(body.contains("`/close` was not done: labels lacks pinned does not hold"), "\(body)")
    }

    /// `state = open` is what the rule's listing selects, yet for a command it decides only the
    /// reply: a command on a closed issue is answered, and `explain` shows the condition failed.
    @Test func aCommandOnAnItemOutsideTheSelectionIsToldWhy() throws {
        var issue = recent([said("maria", "/label bug", id: 22)])
        issue.state = .closed
        let plan = try plan([issue])
        let body = try #require(plan.entries.first?.actions.first?.command?.stdin)
        #expect(body.hasPrefix("@maria: `/label bug` was not done: state = open does not hold (it is closed)."))
        let reference = try #require(Fixtures.registry.reference(parsing: "\(Fixtures.path)#\(issue.number)"))
        let explanation = try #require(
            Evaluator(registry: Fixtures.registry).explanation(
                of: reference, rules: ruleSet(), state: state([issue]), source: "test"))
        let label = try #require(explanation.rules.first { $0.name == "label-command" })
        #expect(label.verdict != .unknown)
        #expect(label.conditions.contains { $0.condition == "state = open" && $0.holds == false })
    }

    /// A reply gitbay refused for good (an archived repository takes no comment), as the journal
    /// keeps it, settles the command as the reply on gitbay would: nothing is tried again.
    @Test func aReplyGitbayRefusedSettlesItsCommand() throws {
        let issue = recent([said("drive-by", "/label bug", id: 23)])
        var state = state([issue])
        #expect(
            !(try Evaluator(registry: Fixtures.registry).plan(rules: ruleSet(), state: state, source: "t").entries
                .isEmpty))
        let marker = Evaluator.marker(rule: "label-command", item: "krz/gitbay#188", command: 23)
        state.repositories[0].refusedReplies = ["@drive-by: `/label bug` was not done.\n\(marker)"]
        let plan = Evaluator(registry: Fixtures.registry).plan(rules: try ruleSet(), state: state, source: "test")
        #expect(plan.entries.isEmpty, "\(plan.entries)")
    }

    @Test func wrongArgumentsAreRefusedWithTheUsage() throws {
        let plan = try plan([recent([said("maria", "/label", id: 21)])])
        let body = try #require(plan.entries.first?.actions.first?.command?.stdin)
        #expect(body.contains("<labels> is missing; usage: /label <labels:label>..."), "\(body)")
    }

    /// `/label --remove bug` is answered with why and the usage line, and nothing is labelled: gitbay's
    /// `issue label --add` would take `--remove` verbatim as a new label's name.
    @Test func aLabelStartingWithADashIsRefusedWithTheUsage() throws {
        let plan = try plan([recent([said("maria", "/label --remove bug", id: 37)])])
        let entry = try #require(plan.entries.first)
        #expect(entry.actions.map(\.action) == ["comment"])
        let body = try #require(entry.actions.first?.command?.stdin)
        #expect(
            body.hasPrefix(
                "@maria: `/label --remove bug` was not done: labels: --remove is not a label: a label does not "
                    + "start with -; usage: /label <labels:label>..."), "\(body)")
    }

    @Test func anAnsweredCommandIsNotAnsweredAgain() throws {
        let mine = ReactionCount(reaction: "+1", count: 1, me: true)
        let theirs = ReactionCount(reaction: "+1", count: 1, me: false)
        #expect(try plan([recent([said("maria", "/label bug", id: 22, reactions: [mine])])]).entries.isEmpty)
        #expect(try plan([recent([said("maria", "/label bug", id: 22, reactions: [theirs])])]).entries.count == 1)
        let refused = GitbayKit.Comment(
            author: Fixtures.me,
            body: "no\n<!-- gitbay-bot:rule=label-command item=krz/gitbay#188 command=23 -->",
            createdAt: Fixtures.now.addingTimeInterval(-60), kind: .comment, id: 24)
        #expect(try plan([recent([said("drive-by", "/label bug", id: 23), refused])]).entries.isEmpty)
        let journal = ItemActivity(
            at: Fixtures.now, actor: Fixtures.me, kind: "react", source: .journal,
            argv: ["issue", "react", "krz/gitbay", "188", "--comment", "25", "+1"])
        #expect(try plan([recent([said("maria", "/label bug", id: 25)])], activity: [journal]).entries.isEmpty)
    }

    /// A slip for a command the rules give gets one reply naming it, from the rule of the item's kind
    /// that gives it; a command no rule gives and nothing near one is none of the bot's business.
    @Test func aMisspeltCommandIsAnsweredWithTheOneMeantAndNothingElse() throws {
        let twice = try ruleSet(
            Self.rules + """

                  - name: label-again
                    on: merge_requests
                    command: /label <labels:label>...
                    do:
                      - add-label: "{{ command.labels }}"
                """)
        let slipped = try plan([recent([said("maria", "/lable bug", id: 30)])], rules: twice)
        #expect(slipped.entries.map(\.rule) == ["label-command"], "one reply for one slip")
        let entry = try #require(slipped.entries.first)
        #expect(entry.actions.map(\.action) == ["comment"])
        #expect(
            entry.actions.first?.command?.stdin?.hasPrefix(
                "@maria: `/lable bug` was not done: `/lable` is not a command; `/label` is.") == true,
            "\(entry.actions)")
        #expect(try plan([recent([said("maria", "/clsoe", id: 31)])]).entries.map(\.rule) == ["close-command"])
        let strangers = [
            said("maria", "/lgtm", id: 32), said("maria", "/usr/bin/env is missing", id: 33),
            said("maria", "/retest", id: 34), said("maria", "/lbl bug", id: 35),
        ]
        #expect(try plan([recent(strangers)]).entries.isEmpty)
        #expect(
            try plan([recent([said("maria", "/lable bug\n/label bug", id: 36)])]).entries.flatMap { $0.actions }
                .map(\.action) == ["add-label", "react"], "the command given wins over the slip beside it")
    }

    @Test func quotedOrFencedCommandsAndTheBotsOwnAreIgnored() throws {
        let comments = [
            said("maria", "> /label bug\nquoting", id: 26),
            said("maria", "```\n/label bug\n```", id: 27),
            said(Fixtures.me, "/label bug", id: 28),
            GitbayKit.Comment(author: "maria", body: "/label bug", createdAt: Fixtures.now, kind: .comment),
        ]
        #expect(try plan([recent(comments)]).entries.isEmpty)
    }

    @Test func commandsOlderThanTheWindowAreLeftAlone() throws {
        let old = GitbayKit.Comment(
            author: "maria", body: "/label bug", createdAt: Fixtures.ago(days: 4), kind: .comment, id: 29)
        #expect(try plan([recent([old])]).entries.isEmpty)
    }

    @Test func aHeldCommandHoldsTheOthersOfItsComment() throws {
        let plan = try plan(
            [recent([said("cmc", "/label bug\n/close", id: 30)])], writers: ["cmc"],
            options: EvaluationOptions(maxActions: 2))
        try #require(plan.entries.count == 2)
        #expect(plan.entries.map { $0.actions.map(\.action) } == [["add-label"], ["close", "react"]], "one 👍, last")
        #expect(plan.entries.allSatisfy { !$0.hasPendingActions }, "no reaction while /close waits")
        #expect(
            plan.entries.allSatisfy {
                $0.actions.first?.note == "needs 3 commands, more than --max-actions 2 allows in one run"
            }, "the comment's answer is taken whole: \(plan.entries.map(\.actions))")
    }
}

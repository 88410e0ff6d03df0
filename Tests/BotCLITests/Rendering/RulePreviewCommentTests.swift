import Foundation
import GitbayKit
import IssuesPlugin
import RuleEngine
import Testing
import YAML

@testable import BotCLI

/// What a rules preview compares and how its comment reads: the merge request's author wrote the
/// proposed file, so nothing of it may format, mention or link.
@Suite struct RulePreviewCommentTests {
    private static let issue = PlannedItem(
        repository: "krz/app", kind: .issues, number: 1, title: "old bug", reference: "krz/app#1")

    private static func plan(_ entries: [(rule: String, label: String, status: PlannedAction.Status)]) -> Plan {
        Plan(
            evaluatedAt: Date(timeIntervalSince1970: 0), me: "triage-bot", source: "test", rules: [],
            entries: entries.map { entry in
                PlanEntry(
                    rule: entry.rule, item: issue,
                    reasons: [
                        ConditionResult(
                            condition: "quiet > 30d", field: "quiet", observed: "60d", holds: true, location: "x:1:1")
                    ],
                    actions: [
                        PlannedAction(
                            action: "add-label", status: entry.status,
                            command: ControlCommand(
                                argv: ["issue", "label", "krz/app", "1", "--add", entry.label], stdin: nil,
                                effect: .write))
                    ],
                    precondition: .all([]))
            }, guards: [])
    }

    @Test func theDifferenceIsTheCommandsEachSideAloneWouldSendWhoeverSendsThem() {
        let current = Self.plan([("krz/app:stale", "stale", .pending), ("krz/app:old", "old", .pending)])
        // `old` renamed, `stale` replaced, a held command left out.
        let proposed = Self.plan([
            ("krz/app:aged", "old", .pending), ("krz/app:dusty", "dusty", .pending), ("krz/app:x", "x", .held),
        ])
        guard case .changes(let added, let removed) = RulePreview.compare(current: current, proposed: proposed) else {
            Issue.record("a valid proposal compares")
            return
        }
        #expect(added.map(\.argv.last) == ["dusty"])
        #expect(removed.map(\.argv.last) == ["stale"])
        #expect(added.first?.reasons == ["quiet > 30d (60d)"])
    }

    @Test func theAuthorsTextCannotFormatMentionOrLinkAndEachSideIsCapped() throws {
        let app = try RepositoryPath("krz/app")
        let lines = (0..<25).map { index in
            RulePreview.Line(
                item: "krz/app#1", rule: "krz/app:@alice_[x](http://e)",
                argv: ["issue", "label", "krz/app", "1", "--add", "l\(index)"],
                reasons: ["<b>quiet</b> > 30d"])
        }
        let comment = RulePreviewComment(
            repository: app, preview: .changes(added: lines, removed: []), current: nil)
        #expect(comment.answer.contains("Would start (25)"))
        #expect(comment.answer.contains("- and 5 more"))
        #expect(comment.answer.components(separatedBy: "`issue label").count == 21)
        #expect(!comment.answer.contains("@alice"), "a mention would notify")
        #expect(!comment.answer.contains("[x](http"), "a link would render")
        #expect(!comment.answer.contains("<b>"))
        #expect(comment.status.state == CheckState.success)
        #expect(comment.status.description == "valid: 25 commands would start, 0 stop")
    }

    @Test func theDigestRidesInTheMarkerAndFollowsTheAnswer() throws {
        let app = try RepositoryPath("krz/app")
        let error = Diagnostic.error(
            "unknown kind 'isues'", at: SourceLocation(file: "krz/app:.gitbay/bot.yml", line: 3, column: 9))
        let invalid = RulePreviewComment(repository: app, preview: .invalid([error]), current: nil)
        let same = RulePreviewComment(repository: app, preview: .invalid([error]), current: nil)
        let valid = RulePreviewComment(repository: app, preview: .changes(added: [], removed: []), current: nil)
        #expect(RulePreviewComment.digest(in: invalid.body) == invalid.digest)
        #expect(invalid.digest == same.digest)
        #expect(invalid.digest != valid.digest)
        #expect(invalid.digest.count == 16)
        #expect(RulePreviewComment.digest(in: "quoting <!-- gitbay-bot:rules-preview digest=1 -->") == nil)
        #expect(invalid.answer.contains("- 3:9: unknown kind 'isues'"))
        #expect(invalid.status.state == CheckState.failure)
        #expect(invalid.status.description.hasPrefix("3:9: unknown kind 'isues'; gitbay-bot check"))
    }
}

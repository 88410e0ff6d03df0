import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import IssuesPlugin
import RuleEngine
import Synchronization
import Testing

/// One issue as `issue show` answers it now, whatever the plan saw; every write is recorded.
private final class ShownIssue: ForgeReader, ForgeWriter {
    let issue: GitbayKit.Issue
    let writes = Mutex<[[String]]>([])

    init(_ issue: GitbayKit.Issue) {
        self.issue = issue
    }

    func send<Command: GitbayCommand>(_ command: Command) async throws -> Command.Response {
        guard command is IssueShowCommand, let issue = issue as? Command.Response else {
            throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
        }
        return issue
    }

    func all<Command: PagedCommand>(_ command: Command) async throws -> [Command.Item] {
        throw GitbayError(kind: .usage, message: "not faked: \(command.argv)")
    }

    func write(_ command: ControlCommand) async throws(ForgeFailure) {
        writes.withLock { $0.append(command.argv) }
    }
}

private let commandRules = """
    scope: owner:krz
    rules:
      - name: label-command
        on: issues
        command: /label <labels:label>...
        allowed: [author]
        when: [state = open]
        do:
          - add-label: "{{ command.labels }}"
      - name: close-command
        on: issues
        command: /close
        allowed: [author]
        when: [state = open]
        do: [close]
    """

/// The issue with alice's comment 41 saying `body`, an hour old.
private func asked(_ body: String) -> GitbayKit.Issue {
    GitbayKit.Issue(
        number: 7, title: "Crash", state: .open, author: "alice",
        comments: [GitbayKit.Comment(author: "alice", body: body, createdAt: now - 3_600, kind: .comment, id: 41)],
        createdAt: now - 86_400, updatedAt: now - 3_600)
}

/// `apply` answers a comment only while it still asks: a comment gone, or no longer giving the
/// command, since the plan gets nothing of its answer, every entry skipped saying why.
@Suite struct ApplierCommentTests {
    @Test(arguments: [
        ([], "the comment is gone"),
        (
            [GitbayKit.Comment(author: "alice", body: "/label bug", createdAt: now - 3_600, kind: .comment, id: 41)],
            "the comment no longer gives /close"
        ),
    ])
    func aCommentThatNoLongerAsksGetsNothing(comments: [GitbayKit.Comment], reason: String) async throws {
        let planned = Evaluator(registry: registry).plan(
            rules: try rules(commandRules), state: try forge(issues: [asked("/label bug\n/close")]), source: "t")
        #expect(planned.entries.flatMap(\.actions).map(\.action) == ["add-label", "close", "react"])
        var fresh = asked("")
        fresh.comments = comments
        let forge = ShownIssue(fresh)
        let report = await Applier(registry: registry).apply(
            planned, reader: forge, writer: forge, journal: nil, now: { now })
        let sent = forge.writes.withLock { $0 }
        if reason == "the comment is gone" {
            #expect(sent.isEmpty)
            #expect(report.outcomes.map(\.detail) == Array(repeating: reason, count: 3))
        } else {
            // The label it still gives is done; the withdrawn /close, and so the 👍, are not.
            #expect(sent.map { $0.prefix(2).joined(separator: " ") } == ["issue label"], "\(sent)")
            #expect(report.outcomes.filter { $0.status == .skipped }.map(\.detail) == [reason, reason])
        }
    }
}

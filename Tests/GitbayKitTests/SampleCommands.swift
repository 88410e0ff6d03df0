import GitbayKit

/// One instance of every typed command, erased, with the argv the golden test pins.
///
/// Shared by the golden test and the registry test so that a command added here is checked both
/// against its expected argv and against gitbay's registry.
struct SampleCommand: Sendable, CustomStringConvertible {
    let name: String
    let control: ControlCommand
    let expectedArgv: [String]
    let isPaged: Bool

    var description: String { name }

    init<Command: GitbayCommand>(_ command: Command, _ expectedArgv: [String]) {
        name = String(describing: Command.self)
        control = command.control
        self.expectedArgv = expectedArgv
        isPaged = command is any PagedCommand
    }

    /// Every typed command, with options set so that each flag it can render appears at least once.
    static func all() throws -> [SampleCommand] {
        let repo = try RepositoryPath("krz/gitbay")
        let body = "This issue has had no activity for 90 days."
        return [
            SampleCommand(
                try IssueListCommand(
                    repository: repo, state: .all, label: "needs review", assignee: "alice", author: "cmc",
                    milestone: .titled("v1.38.0"), search: "cursor", limit: 50, cursor: "aXNzdWU6MjEy"),
                [
                    "issue", "list", "krz/gitbay", "--state", "all", "--label", "needs review", "--assignee", "alice",
                    "--author", "cmc", "--milestone", "v1.38.0", "--search", "cursor", "--limit", "50", "--cursor",
                    "aXNzdWU6MjEy",
                ]),
            SampleCommand(
                try IssueListCommand(repository: repo, milestone: .withoutMilestone),
                ["issue", "list", "krz/gitbay", "--state", "open", "--milestone", "none", "--limit", "200"]),
            SampleCommand(
                try IssueQueryCommand(query: "repo:krz/gitbay is:open label:bug", limit: 100, cursor: "cXVlcnk"),
                ["issue", "list", "--q", "repo:krz/gitbay is:open label:bug", "--limit", "100", "--cursor", "cXVlcnk"]),
            SampleCommand(try IssueShowCommand(repository: repo, number: 188), ["issue", "show", "krz/gitbay", "188"]),
            SampleCommand(
                try MergeRequestListCommand(
                    repository: repo, state: .sourceGone, label: "ci", author: "cmc", milestone: .titled("v2"),
                    search: "runner", limit: 20),
                [
                    "mr", "list", "krz/gitbay", "--state", "source_gone", "--label", "ci", "--author", "cmc",
                    "--milestone", "v2", "--search", "runner", "--limit", "20",
                ]),
            SampleCommand(
                try MergeRequestQueryCommand(query: "repo:krz/* is:open"),
                ["mr", "list", "--q", "repo:krz/* is:open", "--limit", "200"]),
            SampleCommand(
                try MergeRequestShowCommand(repository: repo, number: 160), ["mr", "show", "krz/gitbay", "160"]),
            SampleCommand(
                try MergeRequestRevisionsCommand(repository: repo, number: 160),
                ["mr", "revisions", "krz/gitbay", "160"]),
            SampleCommand(
                try BuildListCommand(repository: repo, ref: "feat-x", status: .running, job: "test", limit: 4),
                [
                    "build", "list", "krz/gitbay", "--ref", "feat-x", "--status", "running", "--job", "test", "--limit",
                    "4",
                ]),
            SampleCommand(LabelListCommand(repository: repo), ["label", "list", "krz/gitbay"]),
            SampleCommand(
                MilestoneListCommand(repository: repo, state: .all),
                ["milestone", "list", "krz/gitbay", "--state", "all"]),
            SampleCommand(
                try RepoListCommand(cursor: "cmVwbw"), ["repo", "list", "--limit", "200", "--cursor", "cmVwbw"]),
            SampleCommand(RepoShowCommand(repository: repo), ["repo", "show", "krz/gitbay"]),
            SampleCommand(RepoRefsCommand(repository: repo), ["repo", "refs", "krz/gitbay"]),
            SampleCommand(
                try RepoCatCommand(repository: repo, path: ".gitbay/bot.yml", ref: "0123abcd"),
                ["repo", "cat", "krz/gitbay", ".gitbay/bot.yml", "--ref", "0123abcd"]),
            SampleCommand(
                try RepoTreeCommand(repository: repo, path: ".gitbay"), ["repo", "tree", "krz/gitbay", ".gitbay"]),
            SampleCommand(RepoDepsStatusCommand(repository: repo), ["repo", "deps", "status", "krz/gitbay"]),
            SampleCommand(WhoAmICommand(), ["whoami"]),
            SampleCommand(WebhookListCommand(repository: repo), ["webhook", "list", "krz/gitbay"]),
            SampleCommand(WebhookDeliveriesCommand(repository: repo), ["webhook", "deliveries", "krz/gitbay"]),
            SampleCommand(
                try FeedCommand(limit: 20, cursor: "ZmVlZDo5MA"), ["feed", "--limit", "20", "--cursor", "ZmVlZDo5MA"]),
            SampleCommand(
                try IssueLabelCommand(
                    repository: repo, number: 188, add: ["stale", "needs triage"], remove: ["fresh"]),
                [
                    "issue", "label", "krz/gitbay", "188", "--add", "stale", "--add", "needs triage", "--remove",
                    "fresh",
                ]),
            SampleCommand(
                try IssueCommentCommand(repository: repo, number: 188, body: body),
                ["issue", "comment", "krz/gitbay", "188", "--file", "-"]),
            SampleCommand(
                try IssueCreateCommand(repository: repo, title: "gitbay-bot: last run", body: body),
                ["issue", "create", "krz/gitbay", "--title", "gitbay-bot: last run", "--file", "-"]),
            SampleCommand(
                try IssueEditCommand(repository: repo, number: 188, body: body),
                ["issue", "edit", "krz/gitbay", "188", "--file", "-"]),
            SampleCommand(
                try MergeRequestEditCommand(repository: repo, number: 160, body: body),
                ["mr", "edit", "krz/gitbay", "160", "--file", "-"]),
            SampleCommand(
                try IssueCloseCommand(repository: repo, number: 188), ["issue", "close", "krz/gitbay", "188"]),
            SampleCommand(
                try IssueReopenCommand(repository: repo, number: 188), ["issue", "reopen", "krz/gitbay", "188"]),
            SampleCommand(
                try IssueAssignCommand(repository: repo, number: 188, add: ["alice"], remove: ["cmc", "bob"]),
                ["issue", "assign", "krz/gitbay", "188", "--add", "alice", "--remove", "cmc", "--remove", "bob"]),
            SampleCommand(
                try IssueMilestoneCommand(repository: repo, number: 188, milestone: "v1.38.0"),
                ["issue", "milestone", "krz/gitbay", "188", "v1.38.0"]),
            SampleCommand(
                try IssueMilestoneCommand(repository: repo, number: 188, milestone: nil),
                ["issue", "milestone", "krz/gitbay", "188", "none"]),
            SampleCommand(
                try MergeRequestLabelCommand(repository: repo, number: 160, remove: ["wip"]),
                ["mr", "label", "krz/gitbay", "160", "--remove", "wip"]),
            SampleCommand(
                try MergeRequestCommentCommand(
                    repository: repo, number: 160, body: "Parent !159 landed; marking ready."),
                ["mr", "comment", "krz/gitbay", "160", "--file", "-"]),
            SampleCommand(
                try MergeRequestReadyCommand(repository: repo, number: 160), ["mr", "ready", "krz/gitbay", "160"]),
            SampleCommand(
                try MergeRequestDraftCommand(repository: repo, number: 160), ["mr", "draft", "krz/gitbay", "160"]),
            SampleCommand(
                try MergeRequestMergeCommand(repository: repo, number: 160, strategy: .squash),
                ["mr", "merge", "krz/gitbay", "160", "--strategy", "squash", "--when-ready"]),
            SampleCommand(
                try MergeRequestMergeCommand(repository: repo, number: 160, whenReady: false),
                ["mr", "merge", "krz/gitbay", "160"]),
            SampleCommand(
                try MergeRequestCloseCommand(repository: repo, number: 158), ["mr", "close", "krz/gitbay", "158"]),
            SampleCommand(
                try ReactCommand(.issue, repository: repo, number: 188, comment: 17, reaction: .plusOne),
                ["issue", "react", "krz/gitbay", "188", "--comment", "17", "+1"]),
            SampleCommand(
                try ReactCommand(.mergeRequest, repository: repo, number: 160, reaction: .minusOne, remove: true),
                ["mr", "react", "krz/gitbay", "160", "👎", "--remove"]),
            SampleCommand(RepoAccessListCommand(repository: repo), ["repo", "access", "list", "krz/gitbay"]),
            SampleCommand(
                try MergeRequestCloseCommand(repository: repo, number: 158, supersededBy: 161),
                ["mr", "close", "krz/gitbay", "158", "--by", "161"]),
            SampleCommand(
                try BuildCancelCommand(repository: repo, number: 4213), ["build", "cancel", "krz/gitbay", "4213"]),
            SampleCommand(
                try LabelSetCommand(repository: repo, name: "stale"), ["label", "set", "krz/gitbay", "stale"]),
            SampleCommand(
                try LabelSetCommand(repository: repo, name: "stale", color: "#9A6700"),
                ["label", "set", "krz/gitbay", "stale", "--color", "9a6700"]),
        ]
    }
}

import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// A run previews an open merge request that changes its repository's rules file on it: one
/// comment per answer, a `gitbay-bot/rules` status on each head, and nothing done with the
/// proposed rules.
@Suite struct RulePreviewRunTests {
    /// krz/app's file with `stale` switched for `dusty`, as the merge request proposes it.
    private static let dusty =
        "rules:\n  - name: dusty\n    on: issues\n    when: [state = open, quiet > 30d]\n    do: [{add-label: dusty}]\n"

    /// Pushes `sha` to krz/app's `rules` branch (the merge request's source) a minute later, with
    /// `files` changed from its tip.
    private func push(_ sha: String, files: [String: String], to simulator: SimulatorProcess) async throws {
        let request: [String: Any] = [
            "push": ["repo": "krz/app", "branch": "rules", "sha": sha, "actor": "alice", "files": files],
            "advance_seconds": 60,
        ]
        let body = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
        try await simulator.control(String(decoding: body, as: UTF8.self))
    }

    /// The bot's comments on krz/app!1 and the `gitbay-bot/rules` status of `head`.
    private func seen(
        _ head: String, on simulator: SimulatorProcess
    ) async throws -> (comments: [String], status: CommitStatus?) {
        let client = try simulator.client(access: .readOnly)
        let request = try await client.send(
            MergeRequestShowCommand(repository: try RepositoryPath("krz/app"), number: 1))
        let statuses = try await client.send(StatusListCommand(repository: try RepositoryPath("krz/app"), sha: head))
        return (
            request.comments.filter { $0.author == "triage-bot" }.map(\.body),
            statuses.statuses.first { $0.context == "gitbay-bot/rules" }
        )
    }

    @Test func aChangeIsPreviewedOnceAndAgainOnlyWhenANewHeadChangesTheAnswer() async throws {
        try await withRepositoryRulesForge(merging: Self.dusty) { bot, simulator in
            // A dry run tells the writes the run will make beyond its entries.
            let plan = await bot(["plan"])
            #expect(
                plan.output.contains(
                    "krz/app!1 changes krz/app's rules file: run previews it there (a comment and a gitbay-bot/rules "
                        + "status on 2222222) unless that head was previewed; its rules are not used before it is merged"
                ),
                "\(plan.output)")
            #expect(try await seen(sha("2"), on: simulator).comments.isEmpty)
            let run = await bot(["run"])
            #expect(run.code == 0, "\(run.error)")
            #expect(run.error.contains("comment: rules preview on krz/app!1"), "\(run.error)")
            var (comments, status) = try await seen(sha("2"), on: simulator)
            #expect(comments.count == 1)
            let preview = try #require(comments.first)
            #expect(preview.contains("Would start (1)"), "\(preview)")
            #expect(preview.contains("`issue label krz/app 1 --add dusty` on krz/app#1, rule krz/app:dusty"))
            // The run labelled the issue `stale` before the preview: the current rules send nothing
            // more there, so nothing stops.
            #expect(!preview.contains("Would stop"), "\(preview)")
            #expect(status?.state == .success)
            #expect(status?.description == "valid: 1 command would start, 0 stop")
            // The proposed rules are never acted on: the issue got the merged rules' labels only.
            let issue = try await simulator.client(access: .readOnly).send(
                IssueShowCommand(repository: try RepositoryPath("krz/app"), number: 1))
            #expect(issue.labels.sorted() == ["old", "stale"])

            // A run on the same head sends nothing more, and reads no more than a plan: the head
            // previewed is remembered, not asked for again.
            func reads() async throws -> Int { (try await simulator.stats()["reads"] as? NSNumber)?.intValue ?? -1 }
            let beforePlan = try await reads()
            let after = await bot(["plan"])
            #expect(
                !after.output.contains("run previews it there"),
                "a plan after the run lists what is left: \(after.output)")
            let planReads = try await reads() - beforePlan
            let again = await bot(["run"])
            #expect(try await reads() - beforePlan - planReads == planReads, "\(again.error)")
            #expect(!again.error.contains("rules preview"), "\(again.error)")
            #expect(!again.error.contains("status:"), "\(again.error)")
            #expect(try await seen(sha("2"), on: simulator).comments.count == 1)

            // A push that leaves the file alone: the head gets the status, no new comment.
            try await push(sha("3"), files: ["README.md": "hello\n"], to: simulator)
            let readme = await bot(["run"])
            #expect(!readme.error.contains("comment: rules preview"), "\(readme.error)")
            (comments, status) = try await seen(sha("3"), on: simulator)
            #expect(comments.count == 1)
            #expect(status?.state == .success)

            // A push that breaks the file: a new answer, with the error at its place.
            try await push(
                sha("4"), files: [".gitbay/bot.yml": "rules:\n  - name: dusty\n    on: issues\n"], to: simulator)
            let broken = await bot(["run"])
            #expect(broken.error.contains("comment: rules preview on krz/app!1"), "\(broken.error)")
            (comments, status) = try await seen(sha("4"), on: simulator)
            #expect(comments.count == 2)
            #expect(comments.last?.contains("- 2:5: missing required key 'do'") == true, "\(comments.last ?? "")")
            #expect(comments.last?.contains("Would start") == false)
            #expect(status?.state == .failure)
            #expect(
                status?.description
                    == "2:5: missing required key 'do'; gitbay-bot check --repository krz/app --read-bases")
        }
    }

    /// The first run takes a merge request nobody updated for a day as it is, and reads nothing
    /// of it; its next push is looked at, and previewed.
    @Test func theFirstRunTakesAQuietMergeRequestAsItIsUntilItsNextUpdate() async throws {
        try await withRepositoryRulesForge(merging: Self.dusty, opened: "2026-11-27T00:00:00Z") { bot, simulator in
            let first = await bot(["run", "--verbose"])
            #expect(first.code == 0, "\(first.error)")
            #expect(first.error.contains("rules previews: 1 merge requests not updated for a day taken as they are"))
            #expect(first.error.contains("rules previews: merge requests looked at (0) (0 requests)"), "\(first.error)")
            #expect(try await seen(sha("2"), on: simulator).comments.isEmpty)
            try await push(sha("3"), files: ["README.md": "hello\n"], to: simulator)
            let pushed = await bot(["run", "--verbose"])
            #expect(pushed.error.contains("comment: rules preview on krz/app!1"), "\(pushed.error)")
            #expect(try await seen(sha("3"), on: simulator).status?.state == .success)
        }
    }

    /// A merge request that leaves the file as its base had it is no change of the rules, though
    /// its target changed the file since: merging it would keep the target's.
    @Test func aMergeRequestBehindAChangeOnItsTargetIsNoProposal() async throws {
        try await withRepositoryRulesForge(merging: appRules) { bot, simulator in
            let request: [String: Any] = [
                "push": [
                    "repo": "krz/app", "branch": "main", "sha": sha("5"), "actor": "alice",
                    "files": [".gitbay/bot.yml": Self.dusty],
                ]
            ]
            let body = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
            try await simulator.control(String(decoding: body, as: UTF8.self))
            let run = await bot(["run", "--verbose"])
            #expect(run.code == 0, "\(run.error)")
            // The head's file is not main's: its revisions and its base's tree tell it is the base's.
            #expect(run.error.contains("rules previews: merge requests looked at (1) (3 requests)"), "\(run.error)")
            #expect(!run.error.contains("rules preview on"), "\(run.error)")
            let (comments, status) = try await seen(sha("2"), on: simulator)
            #expect(comments.isEmpty)
            #expect(status == nil)
        }
    }

    @Test func anOperatorWhoSaysPreviewFalseGetsNone() async throws {
        try await withRepositoryRulesForge(merging: Self.dusty) { bot, simulator in
            let configuration = Scratch.url("preview-off-\(UUID().uuidString).yml")
            try "repository_rules:\n  preview: false\n".write(to: configuration, atomically: true, encoding: .utf8)
            let run = await bot(["run", "--config", configuration.path, "--verbose"])
            #expect(run.code == 0, "\(run.error)")
            #expect(!run.error.contains("rules previews"), "\(run.error)")
            let (comments, status) = try await seen(sha("2"), on: simulator)
            #expect(comments.isEmpty)
            #expect(status == nil)
        }
    }
}

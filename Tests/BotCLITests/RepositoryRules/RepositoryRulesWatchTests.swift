import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// krz/app's rules with, beside `stale`, a rule an events pass can be seen to judge: alice's
/// `bug` label sets it off.
private let appRulesWithTriage =
    appRules
    + "  - name: triage\n    on: issues\n    when: [state = open, labels has bug]\n"
    + "    do: [{add-label: triage}]\n"

/// `watch` reads the repositories' own rules files at each full pass and judges their rules in
/// the events passes between; a broken file is said once and listed on the page and `/metrics`.
@Suite struct RepositoryRulesWatchTests {
    /// A watcher of ``repositoryRulesForge(app:lib:merging:opened:)`` (alice's token given), with
    /// the operator's rules, and krz/app#1's labels as gitbay has them now.
    private func watching(
        app: String = appRules, lib: String? = nil, merging: String? = nil,
        _ body: (
            _ watcher: ServedWatcher, _ simulator: SimulatorProcess, _ labels: () async throws -> [String]
        ) async throws -> Void
    ) async throws {
        let folder = Scratch.url("repository-rules-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try operatorRules.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        try await SimulatorProcess.run(
            state: repositoryRulesForge(app: app, lib: lib, merging: merging),
            options: [
                "--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000",
                "--user-token", "alice=\(ForgeActivity.personToken)",
            ]
        ) { simulator in
            let watcher = try await ServedWatcher(simulator, rules: folder.path, ["--verbose"])
            let client = try simulator.client(access: .readOnly)
            let issue = try IssueShowCommand(repository: RepositoryPath("krz/app"), number: 1)
            try await body(watcher, simulator) { try await client.send(issue).labels.sorted() }
        }
    }

    @Test func aWatcherActsWithARepositorysRulesAndListsABrokenFile() async throws {
        let lib = "rules:\n  - name: close-all\n    on: issues\n    scope: repo:krz/app\n    do: [close]\n"
        try await watching(app: appRulesWithTriage, lib: lib) { watcher, simulator, labels in
            _ = try await watcher.bot.waitForError(
                containing: "warning: krz/lib's own rules wait until its file is mended: 4:12: ")
            // The full pass acted with krz/app's own rule beside the operator's.
            #expect(try await eventually { try await labels() == ["old", "stale"] })
            let page = try await watcher.get("/").body
            #expect(page.contains("Repositories' rules files with an error"), "\(page)")
            #expect(
                page.contains("<code>krz/lib</code></td><td>4:12: a repository&#39;s own rules act on krz/lib only"))
            let metrics = try await watcher.get("/metrics").body
            #expect(metrics.contains("gitbay_bot_repository_rules_broken{repository=\"krz/lib\"} 1\n"), "\(metrics)")

            // Alice labels the issue `bug`: an events pass, which reads no file, acts with krz/app's `triage`.
            let labelled = try await simulator.write(
                ["issue", "label", "krz/app", "1", "--add", "bug"], token: ForgeActivity.personToken)
            #expect(labelled == 200)
            #expect(try await eventually { try await labels() == ["bug", "old", "stale", "triage"] })
            let end = try await watcher.stop()
            #expect(end.error.components(separatedBy: "krz/lib's own rules wait").count - 1 == 1, "\(end.error)")
            #expect(end.error.contains("status: gitbay-bot/rules failure on krz/lib"), "\(end.error)")
        }
    }

    /// A merge that changes krz/app's file is read in the events pass that sees it, not at the
    /// next full pass an hour on: the merged `triage` rule answers alice's label at once.
    @Test func anEventsPassReadsTheFileAMergeChanged() async throws {
        try await watching(merging: appRulesWithTriage) { watcher, simulator, labels in
            #expect(try await eventually { try await labels() == ["old", "stale"] })
            #expect(try await simulator.write(["mr", "merge", "krz/app", "1"]) == 200)
            // The full pass looked at both repositories' files; the events pass after the merge at krz/app's.
            _ = try await watcher.bot.waitForError(containing: "rules files: repo tree .gitbay (1 request)")
            let labelled = try await simulator.write(
                ["issue", "label", "krz/app", "1", "--add", "bug"], token: ForgeActivity.personToken)
            #expect(labelled == 200)
            #expect(try await eventually { try await labels() == ["bug", "old", "stale", "triage"] })
            let end = try await watcher.stop()
            #expect(end.error.components(separatedBy: "rules files: repo tree .gitbay (2 requests)").count - 1 == 1)
        }
    }
}

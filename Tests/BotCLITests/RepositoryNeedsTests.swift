import Foundation
import GitbayTestSupport
import Testing

/// Two repositories with the dependency checker on: `krz/app` has an issue nobody touched for a
/// year and its tracking issue, as old; `krz/fresh` only an issue opened the day before.
private let twoRepositories = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [
      {"path": "krz/app", "default_branch": "main", "branches": {"main": "\(String(repeating: "1", count: 40))"},
       "labels": [{"name": "stale"}], "deps": {"enabled": true, "issue_number": 2},
       "issues": [
        {"number": 1, "title": "old bug", "state": "open", "author": "alice",
         "created_at": "2025-11-01T00:00:00.000Z", "updated_at": "2025-11-02T00:00:00.000Z"},
        {"number": 2, "title": "Dependency updates", "state": "open", "author": "triage-bot",
         "created_at": "2025-11-01T00:00:00.000Z", "updated_at": "2025-11-02T00:00:00.000Z"}]},
      {"path": "krz/fresh", "default_branch": "main", "branches": {"main": "\(String(repeating: "2", count: 40))"},
       "labels": [{"name": "stale"}], "deps": {"enabled": true, "issue_number": 9},
       "issues": [
        {"number": 1, "title": "new bug", "state": "open", "author": "alice",
         "created_at": "2026-11-28T00:00:00.000Z", "updated_at": "2026-11-28T00:00:00.000Z"}]}]}
    """

private let staleRule = """
    scope: owner:krz
    rules:
      - name: mark-stale
        on: issues
        when: [state = open, quiet > 60d, not tracking_issue, labels lacks stale]
        do: [{add-label: stale}]
    """

/// A repository fact (`repo deps status`) is read only where an issue may still match a rule
/// that consults it.
@Suite struct RepositoryNeedsTests {
    @Test func theDependencyCheckerIsAskedOnlyWhereAnIssueMayStillMatch() async throws {
        let folder = Scratch.url("deps-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try staleRule.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        try await SimulatorProcess.run(
            state: twoRepositories, options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        ) { simulator in
            let plan = await runBot(
                against: simulator, ["plan", folder.path, "--state-dir", BotState().folder, "--verbose"])
            #expect(plan.code == 0, "\(plan.error)")
            // krz/fresh's only issue is a day old: `quiet > 60d` rules it out from its row.
            #expect(
                plan.error.contains("repo deps status for repositories with a candidate (1 request)"), "\(plan.error)")
            // krz/app's status was read: its tracking issue is left alone, the old bug labelled.
            #expect(plan.output.contains("issue label krz/app 1 --add stale"), "\(plan.output)")
            #expect(!plan.output.contains("issue label krz/app 2"), "\(plan.output)")
            #expect(!plan.output.contains("krz/fresh"), "\(plan.output)")
        }
    }
}

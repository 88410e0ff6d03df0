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

/// Two repositories with builds: `krz/app` has a pending build that a newer one on the tip of its
/// branch supersedes; `krz/done` only finished builds.
private let twoBuildRepositories = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot"],
     "repos": [
      {"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(String(repeating: "1", count: 40))", "feat": "\(String(repeating: "d", count: 40))"},
       "builds": [
        {"number": 1, "job": "test", "status": "pending", "sha": "\(String(repeating: "c", count: 40))", "ref": "feat",
         "created_at": "2026-11-28T00:00:00Z"},
        {"number": 2, "job": "test", "status": "pending", "sha": "\(String(repeating: "d", count: 40))", "ref": "feat",
         "created_at": "2026-11-28T01:00:00Z"}]},
      {"path": "krz/done", "default_branch": "main", "branches": {"main": "\(String(repeating: "2", count: 40))"},
       "builds": [
        {"number": 1, "job": "test", "status": "success", "sha": "\(String(repeating: "2", count: 40))", "ref": "main",
         "created_at": "2026-11-28T00:00:00Z"}]}]}
    """

/// The shipped rule that cancels superseded builds, on `owner:krz`; `SweepJourneyTests` plans with it too.
let cancelRule = """
    scope: owner:krz
    rules:
      - name: cancel-superseded
        on: builds
        when: ["status in [pending, running]", superseded, not ref.default]
        do: [cancel]
    """

/// A repository fact (`repo deps status`, a build's surroundings) is read only where an item may
/// still match a rule that consults it.
@Suite struct RepositoryNeedsTests {
    @Test func theDependencyCheckerIsAskedOnlyWhereAnIssueMayStillMatch() async throws {
        let plan = try await verbosePlan(of: staleRule, on: twoRepositories)
        #expect(plan.code == 0, "\(plan.error)")
        // krz/fresh's only issue is a day old: `quiet > 60d` rules it out from its row.
        #expect(
            plan.error.contains("repo deps status for repositories with a candidate (1 request)"), "\(plan.error)")
        // krz/app's status was read: its tracking issue is left alone, the old bug labelled.
        #expect(plan.output.contains("issue label krz/app 1 --add stale"), "\(plan.output)")
        #expect(!plan.output.contains("issue label krz/app 2"), "\(plan.output)")
        #expect(!plan.output.contains("krz/fresh"), "\(plan.output)")
    }

    /// A rule on pending or running builds needs a repository's default branch, tips and open
    /// merge requests only where there is such a build.
    @Test func aBuildsSurroundingsAreReadOnlyWhereABuildMayStillBeCancelled() async throws {
        let plan = try await verbosePlan(of: cancelRule, on: twoBuildRepositories)
        #expect(plan.code == 0, "\(plan.error)")
        // Each repository's build lists, and repo show, repo refs and mr list --state open for
        // krz/app alone: 11 when krz/done's three were read too.
        #expect(plan.error.contains("where there is one (8 requests)"), "\(plan.error)")
        #expect(plan.output.contains("build cancel krz/app 1"), "\(plan.output)")
        #expect(!plan.output.contains("build cancel krz/app 2"), "\(plan.output)")
    }

    /// A `plan --verbose` of `rules` (one file's text) against the simulator serving `forge`.
    private func verbosePlan(
        of rules: String, on forge: String
    ) async throws -> (code: Int32, output: String, error: String) {
        let folder = Scratch.url("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try rules.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        return try await SimulatorProcess.run(
            state: forge, options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        ) { simulator in
            await runBot(against: simulator, ["plan", folder.path, "--state-dir", BotState().folder, "--verbose"])
        }
    }
}

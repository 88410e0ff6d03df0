import Foundation
import GitbayTestSupport
import Testing

private let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/checks/label-failing-checks.yml")
    .path

/// One open merge request whose repository builds a `test` job on every push.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main", "ci_jobs": ["test"],
       "branches": {"main": "\(sha("1"))", "feat-1": "\(sha("a"))"},
       "labels": [{"name": "ci-failing"}],
       "merge_requests": [
         {"number": 1, "title": "feature", "state": "open", "author": "alice", "source": "feat-1",
          "target_ref": "main", "head_sha": "\(sha("a"))", "created_at": "2025-01-01T00:00:00.000Z"}]}]}
    """

/// The example rules on `checks` against the simulator, whose checks follow the head as gitbay's do
/// (`internal/control/build.go` `queueJobs`, `runRunnerDone`): pending after a push, then the
/// build's result.
@Suite struct ChecksRuleTests {
    @Test func aFailingHeadIsLabelledAndAPassingOneUnlabelledPendingInBetweenChangesNothing() async throws {
        try await SimulatorProcess.run(state: forge, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            func run() async throws -> (writes: [String], checks: String) {
                let result = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
                #expect(result.code == 0, "\(result.error)")
                // The value `explain` shows the rules, as in "(checks: pending)".
                let explained = await runBot(against: simulator, ["explain", "krz/app!1", rules])
                let checks = explained.output.components(separatedBy: "(checks: ").dropFirst().first?
                    .prefix { $0 != ")" }
                return (
                    try simulator.journalEntries().compactMap { ($0["argv"] as? [String])?.joined(separator: " ") },
                    checks.map(String.init) ?? explained.output
                )
            }
            func push(_ digit: Character) async throws {
                try await simulator.control(
                    #"{"push": {"repo": "krz/app", "branch": "feat-1", "sha": "\#(sha(digit))"}}"#)
            }
            func finish(_ build: Int, _ status: String) async throws {
                try await simulator.control(
                    #"{"finish_build": {"repo": "krz/app", "number": \#(build), "status": "\#(status)"}}"#)
            }

            try await push("b")
            let pending = try await run()
            #expect(pending.writes.isEmpty)
            #expect(pending.checks == "pending")

            try await finish(1, "failure")
            let failed = try await run()
            #expect(failed.writes == ["mr label krz/app 1 --add ci-failing"])
            #expect(failed.checks == "failure")

            try await push("c")
            let pendingAgain = try await run()
            #expect(pendingAgain.writes == failed.writes, "the label stays while the new head is pending")
            #expect(pendingAgain.checks == "pending")

            try await finish(2, "success")
            let passed = try await run()
            #expect(passed.writes == failed.writes + ["mr label krz/app 1 --remove ci-failing"])
            #expect(passed.checks == "success")
        }
    }

    @Test func theExampleChecks() async {
        let checked = await runBot(["check", rules])
        #expect(checked.code == 0, "\(checked.output)\(checked.error)")
    }
}

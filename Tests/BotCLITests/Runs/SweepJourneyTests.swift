import Foundation
import GitbayTestSupport
import Testing

/// Three repositories alike: on `feat`, a pending build that a newer one on the branch's tip
/// supersedes, and an open merge request from `feat`.
private let threeRepositories = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [\(["a", "b", "c"].map(repository).joined(separator: ","))]}
    """

private func repository(_ name: String) -> String {
    """
    {"path": "krz/\(name)", "default_branch": "main", "branches": {"main": "\(sha("1"))", "feat": "\(sha("d"))"},
     "merge_requests": [
      {"number": 1, "title": "feature", "state": "open", "author": "alice", "source": "feat", "target_ref": "main",
       "head_sha": "\(sha("d"))", "created_at": "2026-11-27T00:00:00Z", "updated_at": "2026-11-27T00:00:00Z"}],
     "builds": [
      {"number": 1, "job": "test", "status": "pending", "sha": "\(sha("c"))", "ref": "feat",
       "created_at": "2026-11-28T00:00:00Z"},
      {"number": 2, "job": "test", "status": "pending", "sha": "\(sha("d"))", "ref": "feat",
       "created_at": "2026-11-28T01:00:00Z"}]}
    """
}

/// `RepositoryNeedsTests`' cancel rule, and a merge request rule, which makes the run list the
/// merge requests across repositories (whose rows tell of pushes).
private let rules =
    cancelRule + "\n"
        + """
          - name: nudge
            on: merge_requests
            when: [state = open, idle > 300d]
            do: [{comment: "still going?"}]

        """

/// Runs `body` with `plan`, a `plan --verbose` of ``rules`` with `extra` arguments against the
/// simulator serving the three repositories, on one state folder for every call.
private func withPlans(
    of ruleText: String = rules,
    _ body: (_ plan: ([String]) async -> (code: Int32, output: String, error: String), SimulatorProcess) async throws
        -> Void
) async throws {
    let folder = Scratch.url("rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try ruleText.write(to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
    let state = BotState()
    try await SimulatorProcess.run(
        state: threeRepositories, options: ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
    ) { simulator in
        try await body(
            { extra in
                await runBot(
                    against: simulator, ["plan", folder.path, "--state-dir", state.folder, "--verbose"] + extra)
            }, simulator)
    }
}

/// Scheduled plans on one state database, as cron makes them: the rolling sweep reads a
/// repository's builds again only where something changed, and what it plans from its copies is
/// what a full read plans.
@Suite struct SweepJourneyTests {
    @Test func aRepositoryIsReadAgainOnlyWhereAnEventOrAPushSaysItChangedAndThePlanIsAFullReadsOne() async throws {
        try await withPlans { planWith, simulator in
            func plan(_ extra: [String] = []) async -> (code: Int32, output: String, error: String) {
                await planWith(extra)
            }
            func cancels(_ output: String) -> [String] {
                output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { $0.hasPrefix("+ build cancel") }.map { String($0.dropFirst(2)) }.sorted()
            }
            let cold = await plan()
            #expect(cold.code == 0, "\(cold.error)")
            // The first run has no feed position to tell what changed since: it reads everything.
            #expect(cold.error.contains("sweep: every repository is read"), "\(cold.error)")
            #expect(cancels(cold.output) == ["build cancel krz/a 1", "build cancel krz/b 1", "build cancel krz/c 1"])

            // Nothing happened, and no time passed since: every repository comes from its copy.
            let quiet = await plan()
            #expect(quiet.error.contains("sweep of builds: 0 of 3 repositories read, 3 from the sweep's copy"))
            #expect(cancels(quiet.output) == cancels(cold.output), "\(quiet.output)")

            // A build of krz/b finishes (the feed shows it); a push moves krz/c's merge request
            // (the feed never shows it; the merge request's row does).
            try await simulator.control(
                #"{"finish_build": {"repo": "krz/b", "number": 1, "status": "success"}}"#)
            try await simulator.control(
                #"{"push": {"repo": "krz/c", "branch": "feat", "sha": "\#(sha("e"))"}}"#)
            let changed = await plan()
            #expect(
                changed.error.contains(
                    "sweep of builds: 2 of 3 repositories read (2 changed), 1 from the sweep's copy"),
                "\(changed.error)")
            let full = await plan(["--read-all", "--no-cache"])
            #expect(full.code == 0, "\(full.error)")
            // krz/b's build finished; krz/c's push superseded build 2 as well.
            #expect(cancels(changed.output) == cancels(full.output), "\(changed.output)\n\(full.output)")
            #expect(cancels(changed.output).contains("build cancel krz/c 2"), "\(changed.output)")
            #expect(!cancels(changed.output).contains("build cancel krz/b 1"), "\(changed.output)")

            // With no sweep, every repository is read whatever its copy says.
            let everything = await plan(["--sweep-period", "0"])
            #expect(!everything.error.contains("sweep of builds"), "\(everything.error)")
            #expect(cancels(everything.output) == cancels(full.output))
        }
    }

    /// A builds rule alone sees a push the feed never shows: the run looks at the open merge
    /// requests' rows itself, once, where a merge request rule's listing would have shown it.
    @Test func aPushIsSeenWithoutAMergeRequestRuleAndNoReadIsSentTwice() async throws {
        try await withPlans(of: cancelRule) { plan, simulator in
            _ = await plan([])
            try await simulator.control(#"{"push": {"repo": "krz/c", "branch": "feat", "sha": "\#(sha("e"))"}}"#)
            let pushed = await plan([])
            #expect(
                pushed.error.contains("sweep of builds: 1 of 3 repositories read (1 changed), 2 from the sweep's copy"),
                "\(pushed.error)")
            #expect(pushed.output.contains("+ build cancel krz/c 2"), "\(pushed.output)")
            let looks = pushed.error.components(separatedBy: "the mr.updated probe's look").count - 1
            #expect(looks == 1, "\(pushed.error)")
        }
        // With a merge request rule, its listing is the look: no second read of the same rows.
        try await withPlans { plan, _ in
            _ = await plan([])
            let warm = await plan([])
            #expect(!warm.error.contains("probe's look"), "\(warm.error)")
            #expect(warm.error.components(separatedBy: "mr list --q").count - 1 == 1, "\(warm.error)")
        }
    }

    /// A read budget smaller than a cold run: the first plan reads what fits, says what it left
    /// and how many runs the rest takes, and the next runs read the rest, the never read first.
    @Test func aReadBudgetLeavesTheRestForTheNextRunsAndSaysSo() async throws {
        try await withPlans { planWith, _ in
            // Ten requests for the rest once the three repositories' rules files were looked for.
            func plan() async -> (code: Int32, output: String, error: String) {
                await planWith(["--read-budget", "13"])
            }
            let first = await plan()
            #expect(first.code == 0, "\(first.error)")
            #expect(
                first.output.contains(
                    "read budget of 13 requests reached; 1 repository never read waits for the next runs, "
                        + "their items not judged (about 1 more run at this budget)"),
                "\(first.output)")
            // Under a budget the sweep's line says what is due; the budget's line what it left.
            #expect(first.error.contains("sweep: every repository is due"), "\(first.error)")
            // The budget held two repositories' builds: the third, krz/c, is not judged yet.
            #expect(first.output.contains("build cancel krz/a 1"), "\(first.output)")
            #expect(first.output.contains("build cancel krz/b 1"), "\(first.output)")
            #expect(!first.output.contains("build cancel krz/c 1"), "\(first.output)")
            var seen = first.output
            for _ in 0..<3 {
                seen += await plan().output
            }
            // The never read one was read by a run after, the never read before any copy.
            #expect(seen.contains("build cancel krz/c 1"), "\(seen)")
        }
    }
}

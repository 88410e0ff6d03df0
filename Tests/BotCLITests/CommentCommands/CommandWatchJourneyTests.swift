import Foundation
import GitbayTestSupport
import Testing

private let commands = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/commands").path

/// An issue by `bob`, who may only read, on which `alice`, who may write, gives commands; every
/// instant is `now`, since `watch` judges the command window on the wall's clock.
private func forge(at now: String) -> String {
    """
    {"format": "gitbay-forge-state/1", "now": "\(now)", "me": "triage-bot",
     "users": ["triage-bot", "alice", "bob"],
     "repos": [{"path": "krz/app", "default_branch": "main", "branches": {"main": "\(sha("1"))"},
       "access": ["triage-bot", {"user": "alice", "role": "write"}, {"user": "bob", "role": "read"}],
       "labels": [{"name": "bug"}],
       "issues": [{"number": 1, "title": "Crash on save", "state": "open", "author": "bob",
                   "created_at": "\(now)", "updated_at": "\(now)"}]}]}
    """
}

/// The argv of every write the bot's account applied, in order, but the test's own `webhook add`.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }.filter { !$0.hasPrefix("webhook add") }
}

/// The shipped command rules under `watch`, answered from gitbay's webhook deliveries.
@Suite struct CommandWatchJourneyTests {
    /// A comment's commands are one job of the watcher's write queue (issue 39, finding 9).
    ///
    /// While gitbay answers every `issue label` with a server error (no refusal, so no reply), the
    /// `/assign` beside a `/label` is done but the comment gets no 👍, and the failure shows in the
    /// metrics and the history. Once gitbay mends, the next sweep adds the label and the one 👍,
    /// assigns nobody twice, and the sweep after it finds nothing to do.
    @Test func aWatchedCommentIsAcknowledgedOnlyOnceEveryCommandOfItIsDone() async throws {
        let now = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let options = [
            "--clock", "running", "--api-rate", "6000", "--write-rate", "6000", "--webhook-allow-local",
            "--user-token", "alice=\(ForgeActivity.personToken)", "--fault", "500,command=issue label,method=POST",
        ]
        try await SimulatorProcess.run(state: forge(at: now), options: options) { simulator in
            let state = BotState()
            let hooked = try await HookedWatcher(simulator, state: state, rules: commands)
            let watcher = hooked.watcher
            #expect(try await watcher.nextWait() == .seconds(30), "\(watcher.console.error)")

            let asked = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "/label bug\n/assign @alice"],
                token: ForgeActivity.personToken)
            #expect(asked == 200)
            // The job is sent whole, and the metrics count its outcomes once it is: the label
            // failed, the assignment went out, and the 👍 (the assignment's last action) did not.
            let actions = "gitbay_bot_actions_total"
            let failed = actions + "{outcome=\"failed\",rule=\"label-command\"} 1"
            let assigned = actions + "{outcome=\"applied\",rule=\"assign-command\"}"
            let sent = try await eventually(within: 60) {
                let metrics = try await hooked.metrics()
                return metrics.contains(failed) && metrics.contains(assigned)
            }
            let metrics = try await hooked.metrics()
            #expect(sent, "\(metrics)\n\(watcher.console.error)")
            #expect(metrics.contains(assigned + " 1"), "only the assignment: \(metrics)")
            #expect(metrics.contains(actions + "{outcome=\"skipped\",rule=\"assign-command\"} 1"), "\(metrics)")
            #expect(try botWrites(simulator) == ["issue assign krz/app 1 --add alice"])
            let reported = try await state.commands(server: simulator.baseURL, outcome: "failed")
            #expect(reported == ["issue label krz/app 1 --add bug"], "in the history")
            var issue = try await self.issue(of: simulator)
            #expect((issue["labels"] as? [String] ?? []).isEmpty, "\(issue)")
            #expect(try comment(of: issue)["reactions"] == nil, "no 👍 while /label is not done: \(issue)")

            try await simulator.control("{\"faults\": []}")
            // Nothing the bot hears of names the issue again: the sweep, fifteen minutes on, does.
            #expect(try await watcher.nextWait() < .seconds(900), "idle since the delivery's pass")
            watcher.clock.advance(to: .seconds(900))
            #expect(try await watcher.nextWait() > .seconds(900), "\(watcher.console.error)")
            let mended = try await eventually(within: 60) {
                try botWrites(simulator).contains { $0.hasPrefix("issue react krz/app 1 --comment ") }
            }
            #expect(mended, "\(watcher.console.output)\n\(watcher.console.error)")
            let writes = try botWrites(simulator)
            #expect(writes.count == 3, "\(writes)")
            #expect(
                Array(writes.prefix(2)) == ["issue assign krz/app 1 --add alice", "issue label krz/app 1 --add bug"])
            #expect(writes.last?.hasSuffix(" +1") == true, "\(writes)")
            issue = try await self.issue(of: simulator)
            #expect(issue["labels"] as? [String] == ["bug"], "\(issue)")
            #expect(issue["assignees"] as? [String] == ["alice"], "\(issue)")
            let reactions = try comment(of: issue)["reactions"] as? [[String: Any]]
            #expect(reactions?.count == 1 && reactions?[0]["reaction"] as? String == "+1", "\(issue)")
            #expect(reactions?[0]["users"] as? [String] == ["triage-bot"], "one 👍, the bot's: \(issue)")

            // The sweep after that judges the comment answered: it acts on nothing.
            watcher.clock.advance(to: .seconds(1800))
            #expect(try await watcher.nextWait() > .seconds(1800), "\(watcher.console.error)")
            let full = watcher.lines.filter { $0["pass"] as? String == "full" }
            #expect(full.count == 3 && full.last?["actions"] as? Int == 0, "\(full)")
            // The line of the first pass after the failed job told of it.
            #expect(full.dropFirst().first?["failed"] as? Int == 1, "\(full)")
            #expect(try botWrites(simulator) == writes)
            #expect(await watcher.stop() == 130)
        }
    }

    /// Issue 1 of krz/app as the simulator holds it.
    private func issue(of simulator: SimulatorProcess) async throws -> [String: Any] {
        let repos = try #require(try await simulator.forge()["repos"] as? [[String: Any]])
        let issues = try #require(repos.first?["issues"] as? [[String: Any]])
        return try #require(issues.first { $0["number"] as? Int == 1 })
    }

    /// Alice's comment on `issue`, the one she made.
    private func comment(of issue: [String: Any]) throws -> [String: Any] {
        let comments = (issue["comments"] as? [[String: Any]] ?? []).filter { $0["author"] as? String == "alice" }
        try #require(comments.count == 1, "\(issue)")
        return comments[0]
    }
}

import Foundation
import GitbayTestSupport
import Testing

private let commands = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/commands").path
private let now = "2026-12-02T12:00:00.000Z"

/// A closed issue and a merge request whose source branch is gone, on a repository where alice
/// may write; `archived` makes it an archived one, where alice's `/label bug` on the open issue
/// 3 was written before it was archived (gitbay takes no comment there since).
private func forge(archived: Bool = false) -> String {
    let asked =
        archived
        ? ", \"comments\": [{\"author\": \"alice\", \"body\": \"/label bug\", "
            + "\"created_at\": \"2026-12-02T11:00:00.000Z\"}]" : ""
    return """
        {"format": "gitbay-forge-state/1", "now": "\(now)", "me": "triage-bot",
         "users": ["triage-bot", "alice"],
         "repos": [{"path": "krz/app", "default_branch": "main", "archived": \(archived),
           "branches": {"main": "\(sha("1"))"},
           "access": ["triage-bot", {"user": "alice", "role": "write"}],
           "labels": [{"name": "bug"}],
           "issues": [{"number": 1, "title": "Crash on save", "state": "closed", "author": "alice",
                       "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"},
                      {"number": 3, "title": "Slow start", "state": "open", "author": "alice",
                       "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-12-02T11:00:00.000Z"\(asked)}],
           "merge_requests": [{"number": 2, "title": "Bump the parser", "state": "source_gone", "draft": false,
                               "author": "alice", "source": "feat", "target_ref": "main", "head_sha": "\(sha("2"))",
                               "created_at": "2026-11-30T09:00:00.000Z",
                               "updated_at": "2026-11-30T09:00:00.000Z"}]}]}
        """
}

/// The simulator on a frozen clock, with alice, who may write, able to comment.
private let options = ["--clock", "frozen", "--user-token", "alice=\(ForgeActivity.personToken)"]

/// The argv of every write the bot's account applied, in order.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// The bodies of the comments on `reference` (`#1`, `!2`) of krz/app as the simulator holds them.
private func comments(on reference: String, of simulator: SimulatorProcess) async throws -> [String] {
    let repos = try #require(try await simulator.forge()["repos"] as? [[String: Any]])
    let key = reference.hasPrefix("#") ? "issues" : "merge_requests"
    let items = try #require(repos.first?[key] as? [[String: Any]])
    let item = try #require(items.first { $0["number"] as? Int == Int(reference.dropFirst()) })
    return ((item["comments"] as? [[String: Any]]) ?? []).compactMap { $0["body"] as? String }
}

/// Every command gets an answer, or a silence the docs name, and only once: a command on an item
/// its rule does not act on (closed, its source gone) is told why.
@Suite(.serialized) struct CommandSettlingJourneyTests {
    private func run(
        _ simulator: SimulatorProcess, state: BotState, _ verb: String = "run", _ extra: [String] = []
    ) async -> (code: Int32, output: String, error: String) {
        await runBot(
            [verb] + extra + [
                commands, "--url", simulator.baseURL.absoluteString, "--now", now, "--state-dir", state.folder,
            ],
            environment: ["GITBAY_TOKEN": simulator.token])
    }

    /// `/label bug` on a closed issue and `/merge` on a merge request whose source branch is gone
    /// get a reply naming the condition that fails; `explain` shows it failed, and no later run,
    /// a lost database's included, answers again.
    @Test func aCommandOnAClosedItemIsToldWhichConditionFails() async throws {
        try await SimulatorProcess.run(state: forge(), options: options) { simulator in
            for (noun, number, text) in [("issue", "1", "/label bug"), ("mr", "2", "/merge")] {
                let said = try await simulator.write(
                    [noun, "comment", "krz/app", number, "--message", text], token: ForgeActivity.personToken)
                #expect(said == 200)
            }
            let state = BotState()
            let explained = await runBot(
                [
                    "explain", "krz/app!2", commands, "--url", simulator.baseURL.absoluteString, "--now", now,
                    "--state-dir", state.folder,
                ],
                environment: ["GITBAY_TOKEN": simulator.token])
            let merge = explained.output.components(separatedBy: "\n\n").first { $0.hasPrefix("merge-command") }
            #expect(merge?.contains("unknown") == false, "\(explained.output)")
            #expect(merge?.contains("✗ state = open  (state: source_gone)") == true, "\(explained.output)")

            let first = await run(simulator, state: state)
            #expect(first.code == 0, "\(first.output)\(first.error)")
            let writes = try botWrites(simulator)
            #expect(writes == ["issue comment krz/app 1 --file -", "mr comment krz/app 2 --file -"], "\(writes)")
            let issueReply = try await comments(on: "#1", of: simulator).last ?? ""
            #expect(
                issueReply.hasPrefix("@alice: `/label bug` was not done: state = open does not hold (it is closed)."))
            let mergeReply = try await comments(on: "!2", of: simulator).last ?? ""
            #expect(
                mergeReply.hasPrefix("@alice: `/merge` was not done: state = open does not hold (it is source_gone)."))

            let second = await run(simulator, state: state)
            #expect(second.output.contains("nothing to do"), "\(second.output)")
            let fresh = await run(simulator, state: BotState())
            #expect(fresh.output.contains("nothing to do"), "the replies are on gitbay: \(fresh.output)")
            #expect(try botWrites(simulator) == writes)
        }
    }

    /// On an archived repository named by `repo:` (the bot learns it is archived only from gitbay's
    /// refusal), a command and its reply are tried once, both refused, and the journal's refused
    /// reply settles the command: no later run sends anything.
    @Test func aCommandOnAnArchivedRepositoryIsTriedOnce() async throws {
        try await SimulatorProcess.run(state: forge(archived: true), options: options) { simulator in
            let tried = {
                try simulator.journalEntries().filter { $0["user"] as? String == "triage-bot" }
                    .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
            }
            let state = BotState()
            let scope = ["--scope", "repo:krz/app"]
            let first = await run(simulator, state: state, "run", scope)
            #expect(first.output.contains("krz/app is archived"), "\(first.output)")
            let once = try tried()
            #expect(once == ["issue label krz/app 3 --add bug", "issue comment krz/app 3 --file -"], "\(once)")
            for _ in 0..<2 {
                let again = await run(simulator, state: state, "run", scope)
                #expect(again.code == 0, "\(again.output)\(again.error)")
                #expect(again.output.contains("nothing to do"), "\(again.output)")
            }
            #expect(try tried() == once, "nothing is tried again")
        }
    }

    /// A comment a saved plan answers, gone by the time the plan is applied, is answered with
    /// nothing: neither its commands nor the 👍 nor a reply, each entry skipped saying why.
    ///
    /// gitbay has no command to delete or edit a comment (the simulator's registry, gitbay's
    /// `issue.go`); a comment goes when gitbay is restored from a backup taken before it.
    @Test func aSavedPlanWhoseCommentIsGoneSendsNothingOfItsAnswer() async throws {
        try await SimulatorProcess.run(state: forge(), options: options) { simulator in
            let asked = try await simulator.write(
                ["issue", "comment", "krz/app", "3", "--message", "/label bug\n/assign me"],
                token: ForgeActivity.personToken)
            #expect(asked == 200)
            let state = BotState()
            let planFile = state.folder + "/plan.json"
            let planned = await run(simulator, state: state, "plan", ["-o", planFile])
            #expect(planned.code == 0, "\(planned.output)\(planned.error)")
            #expect(planned.output.contains("3 commands pending"), "\(planned.output)")

            await simulator.stopServing()
            try await simulator.serveAgain()
            let applied = await runBot(
                ["apply", planFile, "--url", simulator.baseURL.absoluteString, "--state-dir", state.folder],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(try botWrites(simulator).isEmpty, "\(applied.output)")
            for (rule, action) in [
                ("label-command", "add-label"), ("assign-command", "assign"), ("assign-command", "react"),
            ] {
                #expect(
                    applied.output.contains("skipped: \(rule) \(action) on krz/app#3 (the comment is gone)"),
                    "\(applied.output)")
            }
            #expect(!applied.output.contains("not done"), "\(applied.output)")
        }
    }
}

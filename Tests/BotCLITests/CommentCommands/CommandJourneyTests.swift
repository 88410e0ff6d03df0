import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let commands = root.appendingPathComponent("examples/commands").path
private let now = "2026-12-02T12:00:00.000Z"

/// An issue and a merge request by `bob`, who may only read; `alice` may write (gitbay's role,
/// which the bot reads with `repo access list` as the repository's admin).
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "\(now)", "me": "triage-bot",
     "users": ["triage-bot", "alice", "bob"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "feat": "\(sha("2"))"},
       "access": ["triage-bot", {"user": "alice", "role": "write"}, {"user": "bob", "role": "read"}],
       "labels": [{"name": "bug"}, {"name": "hold"}],
       "issues": [{"number": 1, "title": "Crash on save", "state": "open", "author": "bob",
                   "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"}],
       "merge_requests": [{"number": 2, "title": "Bump the parser", "state": "open", "draft": false,
                           "author": "bob", "source": "feat", "target_ref": "main", "head_sha": "\(sha("2"))",
                           "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"}]}]}
    """

/// A merge request whose one check is pending on a repository that requires green checks: gitbay
/// refuses a plain merge (`mr merge` exits 4) and queues one `--when-ready`.
private let pendingForge = """
    {"format": "gitbay-forge-state/1", "now": "\(now)", "me": "triage-bot",
     "users": ["triage-bot", "alice", "bob"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "feat": "\(sha("3"))"},
       "access": ["triage-bot", {"user": "alice", "role": "write"}, {"user": "bob", "role": "read"}],
       "settings": {"require_checks": true}, "ci_jobs": ["test"],
       "merge_requests": [{"number": 3, "title": "Speed up the index", "state": "open", "draft": false,
                           "author": "bob", "source": "feat", "target_ref": "main", "head_sha": "\(sha("3"))",
                           "checks": [{"context": "ci/test", "state": "pending",
                                       "updated_at": "2026-11-30T09:00:00.000Z"}],
                           "created_at": "2026-11-30T09:00:00.000Z", "updated_at": "2026-11-30T09:00:00.000Z"}],
       "builds": [{"number": 1, "job": "test", "status": "pending", "sha": "\(sha("3"))", "ref": "feat",
                   "created_at": "2026-11-30T09:00:00Z"}]}]}
    """

/// The simulator on a frozen clock, with alice, who may write, able to comment.
private let writerOptions = ["--clock", "frozen", "--user-token", "alice=\(ForgeActivity.personToken)"]

/// The argv of every write the bot's account applied, in order.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// The shipped command rules against the simulator, as people use them: a writer's `/label`
/// is done and acknowledged once, across runs and a lost state database; a reader's `/merge`
/// gets a reply that says why, and nothing is merged.
@Suite(.serialized) struct CommandJourneyTests {
    private func run(
        _ simulator: SimulatorProcess, state: BotState
    ) async -> (code: Int32, output: String, error: String) {
        await runBot(
            ["run", commands, "--url", simulator.baseURL.absoluteString, "--now", now, "--state-dir", state.folder],
            environment: ["GITBAY_TOKEN": simulator.token])
    }

    @Test func aWritersLabelIsDoneOnceAndAReadersMergeIsRefused() async throws {
        let bobToken = "gb_" + String(repeating: "c", count: 64)
        try await SimulatorProcess.run(state: forge, options: writerOptions + ["--user-token", "bob=\(bobToken)"]) {
            simulator in
            let labelled = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "Reproduced.\n/label bug"],
                token: ForgeActivity.personToken)
            #expect(labelled == 200)
            let merge = try await simulator.write(
                ["mr", "comment", "krz/app", "2", "--message", "/merge"], token: bobToken)
            #expect(merge == 200)
            let quoted = try await simulator.write(
                ["mr", "comment", "krz/app", "2", "--message", "> /merge\nplease?"], token: ForgeActivity.personToken)
            #expect(quoted == 200)

            let state = BotState()
            let first = await run(simulator, state: state)
            #expect(first.code == 0, "\(first.output)\(first.error)")
            let writes = try botWrites(simulator)
            #expect(writes.contains("issue label krz/app 1 --add bug"), "\(writes)")
            #expect(writes.contains { $0.hasPrefix("issue react krz/app 1 --comment ") && $0.hasSuffix(" +1") })
            #expect(writes.contains("mr comment krz/app 2 --file -"))
            #expect(!writes.contains { $0.hasPrefix("mr merge") || $0.hasPrefix("mr react") }, "\(writes)")
            #expect(writes.count == 3, "one reply, however the quote reads: \(writes)")
            #expect(first.output.contains("not done: only those who may write to krz/app may give it"))

            let second = await run(simulator, state: state)
            #expect(second.output.contains("nothing to do"), "\(second.output)")
            let fresh = await run(simulator, state: BotState())
            #expect(fresh.output.contains("nothing to do"), "the answers are on gitbay: \(fresh.output)")
            #expect(try botWrites(simulator) == writes)
        }
    }

    /// `/merge` while the checks run waits in the bot's own queue, never in gitbay's (which would
    /// merge later on the bot's rights with nobody re-checking): the run sends nothing and says
    /// what it waits for, and the run after the build passes merges it and acknowledges the
    /// comment; no run after that sends anything.
    @Test func aMergeOnPendingChecksWaitsInTheBotsQueueAndMergesOnceTheBuildPasses() async throws {
        try await withMergeAsked("/merge squash") { simulator in
            let state = BotState()
            let first = await run(simulator, state: state)
            #expect(first.code == 0, "\(first.output)\(first.error)")
            #expect(try botWrites(simulator) == ["mr comment krz/app 3 --file -"], "told, nothing queued in gitbay")
            let told = try #require(
                try await comment(
                    on: 3, of: simulator, startingWith: "@alice: `/merge squash` waits: gitbay's gates do not pass:"))
            #expect(told.contains("it is refused if the rule no longer holds"), "\(told)")
            _ = await run(simulator, state: BotState())
            #expect(try botWrites(simulator).count == 1, "told once, though the database is lost")
            #expect(
                first.output.contains("note: krz/app!3: /merge squash by @alice (comment")
                    && first.output.contains("waits: gitbay's gates do not pass:"), "\(first.output)")
            #expect((try await mergeRequest(3, of: simulator))["queued"] == nil)

            try await passBuild(1, on: simulator)
            #expect(
                (try await mergeRequest(3, of: simulator))["state"] as? String == "open", "gitbay waits for the bot")
            let second = await run(simulator, state: state)
            #expect(second.code == 0, "\(second.output)\(second.error)")
            let writes = try botWrites(simulator)
            #expect(writes.dropFirst().first == "mr merge krz/app 3 --strategy squash", "\(writes)")
            #expect(writes.count == 3 && writes[2].hasPrefix("mr react krz/app 3 --comment "), "told once: \(writes)")
            let merged = try await mergeRequest(3, of: simulator)
            #expect(merged["state"] as? String == "merged", "\(merged)")
            #expect(merged["merged_by"] as? String == "triage-bot")
            let after = await run(simulator, state: BotState())
            #expect(after.output.contains("nothing to do"), "\(after.output)")
            #expect(try botWrites(simulator) == writes)
        }
    }

    /// A waiting `/merge` is judged afresh every run, after any newer command on the item: the
    /// `/hold` given while it waited is answered first, the merge is then refused with a reply
    /// saying why, and nothing is merged though the build passed.
    @Test func aWaitingMergeIsRefusedWhenItsRuleNoLongerHolds() async throws {
        try await withMergeAsked { simulator in
            let state = BotState()
            _ = await run(simulator, state: state)
            #expect(try botWrites(simulator) == ["mr comment krz/app 3 --file -"])
            let held = try await simulator.write(
                ["mr", "comment", "krz/app", "3", "--message", "/hold"], token: ForgeActivity.personToken)
            #expect(held == 200)
            try await passBuild(1, on: simulator)
            let second = await run(simulator, state: state)
            #expect(second.code == 3, "the /merge is held while the newer /hold is answered: \(second.output)")
            #expect(second.output.contains("waits until /hold by @alice"), "\(second.output)")
            let third = await run(simulator, state: state)
            #expect(third.code == 0, "\(third.output)\(third.error)")
            let writes = try botWrites(simulator)
            #expect(!writes.contains { $0.hasPrefix("mr merge") }, "\(writes)")
            #expect(writes.contains("mr label krz/app 3 --add hold"), "\(writes)")
            let reply = try #require(
                try await comment(on: 3, of: simulator, startingWith: "@alice: `/merge` was not done"))
            #expect(reply.contains("labels lacks hold does not hold"), "\(reply)")
            #expect((try await mergeRequest(3, of: simulator))["state"] as? String == "open")
        }
    }

    /// A `/merge` merges only the head it was given on: bob, the author, who may not write,
    /// pushes a new head after alice's `/merge`, and its build passes; the run refuses the
    /// command with a reply naming both heads, merges nothing, and no later run does.
    @Test func aMergeIsRefusedWhenTheHeadMovedAfterTheCommand() async throws {
        try await withMergeAsked { simulator in
            let state = BotState()
            _ = await run(simulator, state: state)
            #expect(try botWrites(simulator).allSatisfy { !$0.hasPrefix("mr merge") })
            _ = try await simulator.pushNewHead(sha("4"), toMergeRequest: 3, of: "krz/app", by: "bob", advancing: 60)
            try await passBuild(2, on: simulator)
            let second = await run(simulator, state: state)
            #expect(second.code == 0, "\(second.output)\(second.error)")
            let writes = try botWrites(simulator)
            #expect(!writes.contains { $0.hasPrefix("mr merge") || $0.hasPrefix("mr react") }, "\(writes)")
            let reply = try #require(
                try await comment(on: 3, of: simulator, startingWith: "@alice: `/merge` was not done"))
            #expect(reply.contains("head moved after the command was given: it was \(sha("3").prefix(12))"), "\(reply)")
            #expect(reply.contains("it is \(sha("4").prefix(12))"), "\(reply)")
            #expect((try await mergeRequest(3, of: simulator))["state"] as? String == "open")
            let third = await run(simulator, state: BotState())
            #expect(third.output.contains("nothing to do"), "\(third.output)")
        }
    }

    /// A saved plan's `/merge` is bound too: the head moves between `plan` and `apply`, and the
    /// fresh read before the write refuses it; neither the merge nor the 👍 goes out.
    @Test func anAppliedPlanDoesNotMergeAHeadPushedAfterThePlan() async throws {
        try await withMergeAsked { simulator in
            try await passBuild(1, on: simulator)
            let planFile = FileManager.default.temporaryDirectory.appendingPathComponent("merge-\(UUID()).json").path
            defer { try? FileManager.default.removeItem(atPath: planFile) }
            let url = simulator.baseURL.absoluteString
            let token = ["GITBAY_TOKEN": simulator.token]
            let planned = await runBot(
                ["plan", commands, "--url", url, "--now", now, "-o", planFile], environment: token)
            #expect(planned.code == 0 && planned.output.contains("mr merge krz/app 3"), "\(planned.output)")
            _ = try await simulator.pushNewHead(sha("4"), toMergeRequest: 3, of: "krz/app", by: "bob", advancing: 60)
            let applied = await runBot(
                ["apply", planFile, "--url", url, "--state-dir", BotState().folder], environment: token)
            #expect(applied.output.contains("head moved after the command was given"), "\(applied.output)")
            #expect(try botWrites(simulator).isEmpty, "\(applied.output)")
            #expect((try await mergeRequest(3, of: simulator))["state"] as? String == "open")
        }
    }

    /// A `/merge` merges only while its giver may still approve it: alice loses write access
    /// while it waits for the build; once the build passes, the command is refused, not merged.
    @Test func aWaitingMergeIsRefusedOnceItsGiverLostWriteAccess() async throws {
        try await withMergeAsked { simulator in
            let state = BotState()
            _ = await run(simulator, state: state)
            try await simulator.revokeAccess(of: "alice", on: "krz/app")
            try await passBuild(1, on: simulator)
            let second = await run(simulator, state: state)
            #expect(second.code == 0, "\(second.output)\(second.error)")
            #expect(!(try botWrites(simulator)).contains { $0.hasPrefix("mr merge") })
            #expect(second.output.contains("only those who may write to krz/app may give it"), "\(second.output)")
            #expect((try await mergeRequest(3, of: simulator))["state"] as? String == "open")
        }
    }

    /// Two commands in one comment get one 👍, and only once both are done: while gitbay fails
    /// the label with a server error (no refusal, so no reply), the assignment alone does not
    /// acknowledge the comment, and the next run finishes both.
    @Test func aCommentsCommandsAreAcknowledgedOnceAndOnlyWhenAllAreDone() async throws {
        try await withLabelAndAssignAsked { simulator in
            try await simulator.control("{\"faults\": [\"500,command=issue label,times=20\"]}")
            let state = BotState()
            let broken = await run(simulator, state: state)
            #expect(broken.code != 0)
            #expect(try botWrites(simulator) == ["issue assign krz/app 1 --add alice"], "\(broken.output)")

            try await simulator.control("{\"faults\": []}")
            let mended = await run(simulator, state: state)
            #expect(mended.code == 0, "\(mended.output)\(mended.error)")
            let writes = try botWrites(simulator)
            #expect(writes.count == 3, "\(writes)")
            #expect(writes.contains("issue label krz/app 1 --add bug"))
            #expect(writes.filter { $0.hasPrefix("issue react krz/app 1 --comment ") }.count == 1, "\(writes)")
            #expect(!writes.contains { $0.hasPrefix("issue comment") }, "a server error is no refusal")
            let after = await run(simulator, state: BotState())
            #expect(after.output.contains("nothing to do"), "\(after.output)")
        }
    }

    /// A `plan` first, as the docs advise, keeps the item's detail in the read cache; the `run`
    /// after it still reads afresh what the `/assign` needs, and answers the whole comment.
    @Test func aRunAfterAPlanAnswersWhatThePlanShowed() async throws {
        try await withLabelAndAssignAsked { simulator in
            let state = BotState()
            let preview = await runBot(
                [
                    "plan", commands, "--url", simulator.baseURL.absoluteString, "--now", now, "--state-dir",
                    state.folder,
                ],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(preview.code == 0, "\(preview.output)\(preview.error)")
            let applied = await run(simulator, state: state)
            #expect(!applied.output.contains("\nheld: "), "\(applied.output)")
            let writes = try botWrites(simulator)
            #expect(Set(writes.prefix(2)) == ["issue label krz/app 1 --add bug", "issue assign krz/app 1 --add alice"])
            #expect(writes.count == 3 && writes[2].hasPrefix("issue react krz/app 1 --comment "), "\(writes)")
        }
    }

    /// A writer's `/label bug` is done and acknowledged from the comment's webhook delivery.
    ///
    /// No poll falls due on the watcher's clock, and the poll after adds nothing. The forge's clock
    /// is the wall's, since `watch` judges the command window on it.
    @Test func aLabelCommandIsAnsweredFromItsDeliveryWithoutAPoll() async throws {
        let wall = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let live = forge.replacingOccurrences(of: now, with: wall)
            .replacingOccurrences(of: "2026-11-30T09:00:00.000Z", with: wall)
        let options = [
            "--clock", "running", "--api-rate", "6000", "--write-rate", "6000", "--webhook-allow-local",
            "--user-token", "alice=\(ForgeActivity.personToken)",
        ]
        try await SimulatorProcess.run(state: live, options: options) { simulator in
            let hooked = try await HookedWatcher(simulator, rules: commands)
            let watcher = hooked.watcher
            let answers = { try botWrites(simulator).filter { !$0.hasPrefix("webhook add") } }
            #expect(try await watcher.nextWait() == .seconds(30), "\(watcher.console.error)")
            #expect(try answers().isEmpty)

            let asked = ContinuousClock.now
            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "/label bug"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            let answered = try await eventually(within: 30) {
                let writes = try answers()
                return writes.contains("issue label krz/app 1 --add bug")
                    && writes.contains { $0.hasPrefix("issue react krz/app 1 --comment ") }
            }
            let took = ContinuousClock.now - asked
            #expect(answered, "\(watcher.console.output)\n\(watcher.console.error)")
            #expect(watcher.clock.now == .zero, "the delivery did it, no poll (answered in \(took))")
            let writes = try answers()
            #expect(writes.count == 2, "\(writes)")
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() > .seconds(30), "\(watcher.console.error)")
            #expect(try answers() == writes, "a poll adds nothing")
            #expect(await watcher.stop() == 130)
        }
    }

    /// Runs `body` on the suite's forge once alice, a writer, has asked for `/label bug` and
    /// `/assign me` in one comment on issue 1.
    private func withLabelAndAssignAsked(_ body: (SimulatorProcess) async throws -> Void) async throws {
        try await SimulatorProcess.run(state: forge, options: writerOptions) { simulator in
            let asked = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "/label bug\n/assign me"],
                token: ForgeActivity.personToken)
            #expect(asked == 200)
            try await body(simulator)
        }
    }

    /// Runs `body` on the pending forge once alice, a writer, has commented `message` on !3.
    private func withMergeAsked(
        _ message: String = "/merge", _ body: (SimulatorProcess) async throws -> Void
    ) async throws {
        try await SimulatorProcess.run(state: pendingForge, options: writerOptions) { simulator in
            let asked = try await simulator.write(
                ["mr", "comment", "krz/app", "3", "--message", message], token: ForgeActivity.personToken)
            #expect(asked == 200)
            try await body(simulator)
        }
    }

    /// Build `number` of krz/app passes.
    private func passBuild(_ number: Int, on simulator: SimulatorProcess) async throws {
        try await simulator.control(
            "{\"finish_build\": {\"repo\": \"krz/app\", \"number\": \(number), \"status\": \"success\"}}")
    }

    /// The body of the first comment on merge request `number` that starts with `prefix`.
    private func comment(
        on number: Int, of simulator: SimulatorProcess, startingWith prefix: String
    ) async throws
        -> String?
    {
        (try await mergeRequest(number, of: simulator)["comments"] as? [[String: Any]])?.compactMap {
            $0["body"] as? String
        }.first { $0.hasPrefix(prefix) }
    }

    /// Merge request `number` of krz/app as the simulator holds it.
    private func mergeRequest(_ number: Int, of simulator: SimulatorProcess) async throws -> [String: Any] {
        let repos = try #require(try await simulator.forge()["repos"] as? [[String: Any]])
        let requests = try #require(repos.first?["merge_requests"] as? [[String: Any]])
        return try #require(requests.first { $0["number"] as? Int == number })
    }
}

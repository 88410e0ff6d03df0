import Foundation
import GitbayClient
import GitbayKit
import GitbayTestSupport
import Testing

/// A repository where nothing is due until someone acts.
///
/// A stale issue whose last word is the bot's, a draft stacked on an open merge request, and one
/// pending build on the branch of a third merge request. No date in it decides anything, so the
/// tests hold whatever day they run on.
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(String(repeating: "1", count: 40))", "feat-1": "\(String(repeating: "a", count: 40))",
                    "feat-2": "\(String(repeating: "b", count: 40))", "feat-3": "\(String(repeating: "c", count: 40))"},
       "labels": [{"name": "stale"}],
       "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice", "labels": ["stale"],
                   "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-02T00:00:00.000Z",
                   "comments": [{"author": "triage-bot", "body": "stale notice", "kind": "comment",
                                 "created_at": "2025-01-02T00:00:00.000Z"}]}],
       "merge_requests": [
         {"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
          "target_ref": "main", "head_sha": "\(String(repeating: "a", count: 40))",
          "created_at": "2025-01-01T00:00:00.000Z"},
         {"number": 2, "title": "child", "state": "open", "draft": true, "author": "alice", "source": "feat-2",
          "target_ref": "feat-1", "head_sha": "\(String(repeating: "b", count: 40))",
          "created_at": "2025-01-01T00:00:00.000Z"},
         {"number": 3, "title": "feature", "state": "open", "author": "alice", "source": "feat-3",
          "target_ref": "main", "head_sha": "\(String(repeating: "c", count: 40))",
          "created_at": "2025-01-01T00:00:00.000Z"}],
       "builds": [{"number": 1, "job": "test", "status": "pending", "sha": "\(String(repeating: "c", count: 40))",
                   "ref": "feat-3", "created_at": "2025-01-01T00:00:00Z"}]}]}
    """

/// `rules` (items of a `rules:` list) scoped to the test repository `krz/app`, in a folder of
/// their own; answers the folder.
func scopedRuleFolder(_ rules: String) throws -> String {
    let folder = Scratch.url("watch-rules-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try ("scope: repo:krz/app\nrules:\n" + rules).write(
        to: folder.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
    return folder.path
}

/// The shipped rules that judge no time (`unmark-stale`, `ready-when-stack-lands`,
/// `cancel-superseded`), in a folder of their own, scoped to the test repository.
private func rules() throws -> String {
    try scopedRuleFolder(
        unmarkStaleRule + """

              - name: ready-when-stack-lands
                on: merge_requests
                when:
                  - state = open
                  - draft
                  - stack.landed
                do:
                  - ready
                  - comment: "!{{ stack.parent }} merged, so this one is ready for review."
            """ + "\n" + cancelSupersededRule)
}

private let interval = 2.0
private let simulatorOptions =
    ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"] + ForgeActivity.simulatorOptions

/// Starts `watch` on `simulator` with the test rules.
private func watch(_ simulator: SimulatorProcess, state: BotState, _ extra: [String] = []) throws -> BotProcess {
    try BotProcess(
        [
            "watch", try rules(), "--state-dir", state.folder, "--interval", "\(Int(interval))s", "--full-every",
            "1h", "--url", simulator.baseURL.absoluteString, "--rate-limit", "6000",
        ] + extra, environment: ["GITBAY_TOKEN": simulator.token])
}

/// The argv of every write the bot's account applied.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// Waits (bounded) until the bot has applied `wanted` (each as an argv prefix); answers how many
/// passes `bot` printed meanwhile, or `nil` when the writes never came.
///
/// A watcher acts on an event in the first poll after it, so a test counts the passes the bot
/// took, never the seconds: the pass under way when the event came, and the next.
private func waitFor(
    _ wanted: [String], on simulator: SimulatorProcess, by bot: BotProcess
) async throws
    -> Int?
{
    let before = try await bot.passes(0).count
    let done = try await eventually(within: 60) {
        let writes = try botWrites(simulator)
        return wanted.allSatisfy { want in writes.contains { $0.hasPrefix(want) } }
    }
    return done ? try await bot.passes(0).count - before : nil
}

/// Whether `taken` passes (of ``waitFor(_:on:by:)``) are at most the two in which a watcher acts.
private func withinOnePoll(_ taken: Int?) -> Bool {
    taken.map { $0 <= 2 } ?? false
}

/// The JSON line of each pass a watcher printed.
private func passLines(_ output: String) -> [[String: Any]] {
    output.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

/// Stops a watcher with SIGTERM, expects its exit 143, and answers how it ended and its passes.
private func stopped(_ bot: BotProcess) async throws -> (end: BotProcess.Ending, passes: [[String: Any]]) {
    bot.send(SIGTERM)
    let end = try await bot.finish(within: 20)
    #expect(end.status == 143, "\(end.error)")
    return (end, passLines(end.output))
}

/// The events in the simulator's feed, newest first, as the bot's account sees it.
private func feed(_ simulator: SimulatorProcess) async throws -> [FeedEvent] {
    try await simulator.client().send(try FeedCommand(limit: 50)).items
}

/// `watch` against the simulator: it acts on other people's activity in the first poll after it,
/// pushes included though gitbay's feed never shows them, does each thing once, stops cleanly,
/// and a restart after `kill -9` loses and doubles nothing.
///
/// The tests wait for the bot's pass lines and the simulator's journal, never for seconds: what
/// they bound is how many passes a change takes, which no busy machine can stretch.
@Suite struct WatchTests {
    @Test func itActsOnMergesCommentsAndPushesInTheNextPollAndOnce() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let state = BotState()
            let bot = try watch(simulator, state: state, ["--format", "json"])
            try await bot.passes(2)
            #expect(try botWrites(simulator).isEmpty, "nothing is due before anyone acts")

            let merged = try await simulator.write(["mr", "merge", "krz/app", "1"], token: ForgeActivity.personToken)
            #expect(merged == 200)
            let readied = try await waitFor(["mr ready krz/app 2", "mr comment krz/app 2"], on: simulator, by: bot)
            #expect(withinOnePoll(readied), "\(String(describing: readied)): \((try? botWrites(simulator)) ?? [])")

            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            let unmarked = try await waitFor(["issue label krz/app 1 --remove stale"], on: simulator, by: bot)
            #expect(withinOnePoll(unmarked), "\(String(describing: unmarked)): \((try? botWrites(simulator)) ?? [])")

            // A push to the branch of merge request 3 queues a newer build; the feed shows nothing of it.
            let before = try await feed(simulator).map(\.id).max() ?? 0
            try await simulator.control(
                "{\"push\": {\"repo\": \"krz/app\", \"branch\": \"feat-3\", \"sha\": \"\(String(repeating: "d", count: 40))\"}}"
            )
            // Only the bot's own events may come meanwhile (it may still be finishing what it did).
            let since = try await feed(simulator).filter { $0.id > before }
            #expect(
                since.allSatisfy { $0.actor == "triage-bot" && !$0.kind.contains("push") },
                "a push is not in gitbay's feed: \(since)")
            let cancelled = try await waitFor(["build cancel krz/app 1"], on: simulator, by: bot)
            #expect(withinOnePoll(cancelled), "\(String(describing: cancelled)): \((try? botWrites(simulator)) ?? [])")

            // Quiet passes after all that add nothing: each thing was done once. Three more: the
            // one under way, the one that reads back the bot's own events, and a quiet one.
            try await bot.passes(try await bot.passes(0).count + 3)
            let writes = try botWrites(simulator)
            #expect(writes.count == 4, "\(writes)")
            let (end, passes) = try await stopped(bot)
            // One full pass at the start; everything after came from the feed and the probe of
            // open merge requests, and a quiet pass costs two requests: the feed and the probe.
            #expect(passes.first?["pass"] as? String == "full")
            // The full pass judged every item of the rules' kinds: one open issue, three open
            // merge requests and one build.
            #expect(passes.first?["items"] as? Int == 5, "\(end.output)")
            #expect(passes.filter { $0["pass"] as? String == "full" }.count == 1, "\(end.output)")
            #expect(passes.filter { $0["pass"] as? String == "events" }.count >= 3, "\(end.output)")
            let idle = passes.filter { $0["pass"] as? String == "idle" }
            #expect(!idle.isEmpty && idle.allSatisfy { $0["requests"] as? Int == 2 }, "\(end.output)")
            // Two changes the feed did not show: the retarget of !2 when !1 merged, and the push to
            // !3. The bot's own `mr ready` of !2 moved it too, but its own event explains that.
            let unannounced = passes.map { $0["unannounced"] as? Int ?? 0 }.reduce(0, +)
            #expect(unannounced == 2, "\(end.output)")
            // The bot's own writes come back as events that trigger nothing.
            #expect(passes.contains { ($0["own_events"] as? Int ?? 0) > 0 }, "\(end.output)")
        }
    }

    /// gitbay records `issue label` even when nothing changed (`internal/control/issue.go`,
    /// `runIssueLabel`), so the bot's own no-op writes come back in the feed: they trigger no pass.
    @Test func theBotsOwnNoOpEventsTriggerNoPass() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let bot = try watch(simulator, state: BotState(), ["--format", "json"])
            try await bot.passes(2)
            // As the bot's account: issue 1 has `stale` already.
            #expect(try await simulator.write(["issue", "label", "krz/app", "1", "--add", "stale"]) == 200)
            let feed = try await simulator.client().send(try FeedCommand(limit: 1)).items
            #expect(feed.first?.kind == "issue.labeled" && feed.first?.actor == "triage-bot", "\(feed)")
            // The pass that reads the label's event back, then one more.
            let seen = try await bot.waitForOutput(within: 60) { output in
                let later = passLines(output).drop { ($0["own_events"] as? Int ?? 0) != 1 }
                return later.count >= 2
            }
            #expect(!seen.isEmpty)
            let (end, passes) = try await stopped(bot)
            #expect(passes.first?["pass"] as? String == "full")
            let later = passes.dropFirst()
            #expect(later.contains { ($0["own_events"] as? Int ?? 0) == 1 }, "\(end.output)")
            #expect(!later.isEmpty && later.allSatisfy { $0["pass"] as? String == "idle" }, "\(end.output)")
            #expect(try botWrites(simulator) == ["issue label krz/app 1 --add stale"], "the test's write alone")
        }
    }

    /// The bot's `ready` starts a merge someone else queued (gitbay runs it as the queuer:
    /// `internal/control/mergequeue.go`, `attemptLocked`), and the next events pass readies what
    /// was stacked on it, from the queuer's `mr.merged` in the feed.
    @Test func aMergeTheBotsReadyStartedReadiesTheNextInTheStack() async throws {
        let stack = """
            {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
             "users": ["triage-bot", "alice"],
             "repos": [{"path": "krz/app", "default_branch": "main",
               "branches": {"main": "\(sha("1"))", "feat-1": "\(sha("a"))", "feat-2": "\(sha("b"))",
                            "feat-3": "\(sha("c"))"},
               "merge_requests": [
                 {"number": 1, "title": "base", "state": "open", "author": "alice", "source": "feat-1",
                  "target_ref": "main", "head_sha": "\(sha("a"))", "created_at": "2025-01-01T00:00:00.000Z"},
                 {"number": 2, "title": "middle", "state": "open", "draft": true, "author": "alice",
                  "source": "feat-2", "target_ref": "feat-1", "head_sha": "\(sha("b"))",
                  "created_at": "2025-01-01T00:00:00.000Z"},
                 {"number": 3, "title": "top", "state": "open", "draft": true, "author": "alice",
                  "source": "feat-3", "target_ref": "feat-2", "head_sha": "\(sha("c"))",
                  "created_at": "2025-01-01T00:00:00.000Z"}]}]}
            """
        try await SimulatorProcess.run(state: stack, options: simulatorOptions) { simulator in
            let bot = try watch(simulator, state: BotState(), ["--format", "json"])
            try await bot.passes(2)
            let queued = try await simulator.write(
                ["mr", "merge", "krz/app", "2", "--when-ready"], token: ForgeActivity.personToken)
            #expect(queued == 200)
            #expect(
                try await simulator.write(["mr", "merge", "krz/app", "1"], token: ForgeActivity.personToken) == 200)
            // Two polls: the one after the person's merge readies !2, whose queued merge then lands;
            // the one after that merge readies !3.
            let readied = try await waitFor(
                ["mr ready krz/app 2", "mr ready krz/app 3", "mr comment krz/app 3"], on: simulator, by: bot)
            #expect(
                readied.map { $0 <= 3 } ?? false, "\(String(describing: readied)): \((try? botWrites(simulator)) ?? [])"
            )
            let feed = try await simulator.client().send(try FeedCommand(limit: 50)).items
            let merge = feed.first { $0.kind == "mr.merged" && $0.number == 2 }
            #expect(merge?.actor == "alice", "the queued merge runs as the account that queued it: \(feed)")
            let (end, passes) = try await stopped(bot)
            #expect(passes.filter { $0["pass"] as? String == "full" }.count == 1, "\(end.output)")
            let writes = try botWrites(simulator)
            #expect(writes.filter { $0.hasPrefix("mr ready") }.count == 2, "\(writes)")
        }
    }

    /// Killed in the middle of a pass, its `mr ready` held in flight, started again after the
    /// server ran the write (`release`) or never saw it (`drop`): the merge request is readied and
    /// commented exactly once, and the second watcher goes on from the stored feed position.
    @Test(arguments: ["release", "drop"])
    func aRestartAfterKillDashNineMidPassLosesAndDoublesNothing(fate: String) async throws {
        let options = simulatorOptions + ["--fault", "hold,method=POST,command=mr ready"]
        try await SimulatorProcess.run(state: forge, options: options) { simulator in
            let state = BotState()
            let first = try watch(simulator, state: state)
            try await first.passes(2)
            _ = try await simulator.write(["mr", "merge", "krz/app", "1"], token: ForgeActivity.personToken)
            let held = try await eventually(within: 60) {
                (try await simulator.stats()["held"] as? Int) == 1
            }
            #expect(held, "the event pass sends mr ready")
            first.send(SIGKILL)
            let killed = try await first.finish(within: 10)
            #expect(killed.reason == .uncaughtSignal)
            try await simulator.control("{\"\(fate)\": 1, \"faults\": []}")
            _ = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            let second = try watch(simulator, state: state, ["--format", "json"])
            let done = try await waitFor(
                ["mr ready krz/app 2", "mr comment krz/app 2", "issue label krz/app 1 --remove stale"], on: simulator,
                by: second)
            #expect(done != nil, "\((try? botWrites(simulator)) ?? [])")
            // The pass under way, the one that reads back the bot's own events, and a quiet one.
            try await second.passes(try await second.passes(0).count + 3)
            second.send(SIGINT)
            let end = try await second.finish(within: 20)
            #expect(end.status == 130, "\(end.error)")
            let writes = try botWrites(simulator)
            #expect(writes.filter { $0.hasPrefix("mr ready") }.count == 1, "\(writes)")
            #expect(writes.filter { $0.hasPrefix("mr comment") }.count == 1, "\(writes)")
            #expect(Set(writes).count == writes.count, "\(writes)")
            // After its first, full pass the second watcher polls on from where it stood: no gap
            // forces another full pass.
            let passes = passLines(end.output)
            #expect(passes.filter { $0["pass"] as? String == "full" }.count == 1, "\(end.output)")
            // It went on from the position the first one stored: the events of the downtime
            // (the merge's, the comment) came round once more, after the full pass.
            #expect(passes.contains { $0["pass"] as? String == "events" }, "\(end.output)")
        }
    }

    /// SIGHUP reloads the rules after checking them; invalid rules are reported and the old kept.
    @Test func sighupKeepsTheOldRulesWhenTheNewOnesAreInvalid() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let folder = try rules()
            let bot = try BotProcess(
                [
                    "watch", folder, "--state-dir", BotState().folder, "--interval", "1s", "--url",
                    simulator.baseURL.absoluteString, "--rate-limit", "6000",
                ], environment: ["GITBAY_TOKEN": simulator.token])
            try await bot.passes(1)
            try "rules:\n  - name: broken\n    on: nothing\n".write(
                toFile: folder + "/rules.yml", atomically: true, encoding: .utf8)
            bot.send(SIGHUP)
            _ = try await bot.waitForError(containing: "the rules were not reloaded, the old ones stay")
            _ = try await simulator.write(["mr", "merge", "krz/app", "1"], token: ForgeActivity.personToken)
            let readied = try await waitFor(["mr ready krz/app 2"], on: simulator, by: bot)
            #expect(readied != nil, "the old rules still act")
            // Valid rules are taken: here, one rule the old ones could not be mistaken for.
            let one =
                "scope: repo:krz/app\nrules:\n  - name: seen\n    on: issues\n    when:\n"
                + "      - labels has stale\n    do:\n      - add-label: seen\n"
            try one.write(toFile: folder + "/rules.yml", atomically: true, encoding: .utf8)
            bot.send(SIGHUP)
            // The reload comes at the next pass, and the new rule acts in a full pass only when
            // something happens on the issue; a comment by someone else, once it is in force.
            _ = try await bot.waitForError(containing: "rules reloaded: 1 rules")
            _ = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "ping"], token: ForgeActivity.personToken)
            let seen = try await waitFor(["issue label krz/app 1 --add seen"], on: simulator, by: bot)
            #expect(seen != nil, "the new rule acts")
            #expect(!(try botWrites(simulator)).contains { $0.contains("--remove stale") }, "the old one is gone")
            bot.send(SIGTERM)
            let end = try await bot.finish(within: 20)
            #expect(end.status == 143)
            #expect(end.error.contains("the rules were not reloaded, the old ones stay"), "\(end.error)")
            #expect(end.error.contains("rules reloaded: 1 rules"), "\(end.error)")
        }
    }

    /// A watcher started while the server is down (nothing listens on the port) waits for it, as
    /// after a reboot where the bot comes up first, takes a SIGHUP meanwhile as a reload, and still
    /// stops cleanly, at once, even in the middle of its pause or of the client's backoff.
    @Test func aWatcherStartedWhileTheServerIsDownWaitsAndStopsCleanly() async throws {
        let bot = try BotProcess(
            [
                "watch", try rules(), "--state-dir", BotState().folder, "--interval", "1s", "--url",
                "http://127.0.0.1:9",
            ], environment: ["GITBAY_TOKEN": "gb_" + String(repeating: "0", count: 64)])
        let note = "the server did not answer, trying again"
        let waiting = try await bot.waitForError(containing: note)
        #expect(bot.isRunning, "\(waiting)")
        // The note names the server, as run's exit 69 does, so a mistyped URL shows in the journal.
        #expect(
            waiting.contains("s: cannot reach the gitbay server at http://127.0.0.1:9: whoami: cannot connect"),
            "\(waiting)")
        // A SIGHUP before the first pass is a reload to come, not a stop: the watcher goes on waiting.
        bot.send(SIGHUP)
        let later = try await bot.waitForError(containing: "\(note) in 2 s")
        #expect(bot.isRunning, "\(later)")
        bot.send(SIGTERM)
        let end = try await bot.finish(within: 5)
        #expect(end.status == 143, "\(end.error)")
    }

    /// A token the server turns away ends the watcher with exit 1; a busy server is waited out.
    @Test func aRevokedTokenIsExitOneAndABusyServerIsWaitedOut() async throws {
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            try await simulator.control("{\"faults\": [\"503,times=3\"]}")
            let bot = try watch(simulator, state: BotState())
            // The client's retries wait out the three 503s: the first pass ends well.
            let first = try await bot.passes(1)
            #expect(first.first?.contains("full pass") == true, "\(first)")
            try await simulator.control("{\"revoke\": true}")
            let end = try await bot.finish(within: 30)
            #expect(end.status == 1, "\(end.error)")
            #expect(end.error.contains("token"), "\(end.error)")
        }
    }
}

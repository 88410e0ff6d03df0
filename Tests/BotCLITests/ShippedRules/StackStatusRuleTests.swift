import Foundation
import GitbayTestSupport
import Testing

private let example = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/stack-status/stack-waits.yml")

/// A parent merge request and a draft stacked on it (its target is the parent's source branch).
private let forge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "stack-bot",
     "users": ["stack-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main",
       "branches": {"main": "\(sha("1"))", "feat-1": "\(sha("a"))", "feat-2": "\(sha("b"))"},
       "merge_requests": [
         {"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
          "target_ref": "main", "head_sha": "\(sha("a"))", "created_at": "2025-01-01T00:00:00.000Z"},
         {"number": 2, "title": "child", "state": "open", "draft": true, "author": "alice", "source": "feat-2",
          "target_ref": "feat-1", "head_sha": "\(sha("b"))", "created_at": "2025-01-02T00:00:00.000Z"}]}]}
    """

/// The example's `set-status` against the simulator, which keeps statuses per commit as gitbay's
/// `internal/store/statuses.go` does (`SetCommitStatus` upserts, `ListCommitStatuses` lists).
@Suite struct StackStatusRuleTests {
    /// The `status set` a run sends for the child's head `head` with `text`.
    private static func statusSet(_ head: Character, _ text: String) -> String {
        "status set krz/app \(sha(head)) --context gitbay-bot/stack --state success --description \(text)"
    }

    @Test func setOnceAgainAfterAPushAndAgainWhenTheTextChanges() async throws {
        let rules = Scratch.url("stack-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        let file = rules.appendingPathComponent("stack-waits.yml")
        try FileManager.default.copyItem(at: example, to: file)
        try await SimulatorProcess.run(state: forge, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            func run() async throws -> [String] {
                let result = await runBot(against: simulator, ["run", file.path, "--state-dir", state.folder])
                #expect(result.code == 0, "\(result.error)")
                return try simulator.journalEntries().compactMap { ($0["argv"] as? [String])?.joined(separator: " ") }
            }

            let first = try await run()
            #expect(first == [Self.statusSet("b", "waits for !1 to merge")])

            #expect(try await run() == first, "the head already says so")

            try await simulator.control(#"{"push": {"repo": "krz/app", "branch": "feat-2", "sha": "\#(sha("c"))"}}"#)
            let pushed = try await run()
            #expect(pushed == first + [Self.statusSet("c", "waits for !1 to merge")])

            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacing("waits for !{{ stacked_on }} to merge", with: "stacked on !{{ stacked_on }}")
                .write(to: file, atomically: true, encoding: .utf8)
            let reworded = try await run()
            #expect(reworded == pushed + [Self.statusSet("c", "stacked on !1")])
            #expect(try await run() == reworded)
        }
    }

    /// A snapshot keeps the statuses of each open merge request's head, descriptions and all:
    /// offline, the status the bot set reads as set, so the plan of a file is the live plan
    /// ("nothing to do"), not a second `status set` of what the head already says.
    @Test func aSnapshotKeepsTheStatusTheBotSetSoItsPlanIsTheLiveOne() async throws {
        let snapshot = Scratch.url("stack-status-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        try await SimulatorProcess.run(state: forge, options: ["--clock", "frozen"]) { simulator in
            let set = await runBot(against: simulator, ["run", example.path, "--state-dir", BotState().folder])
            #expect(set.code == 0, "\(set.error)")
            let taken = await runBot(
                ["snapshot", "--scope", "repo:krz/app", "-o", snapshot, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(taken.code == 0, "\(taken.error)")
            let online = await runBot(against: simulator, ["plan", example.path])
            #expect(online.output.contains("nothing to do"), "\(online.output)")
        }
        let offline = await runBot(["plan", example.path, "--snapshot", snapshot, "--now", "2026-11-29T12:00:00.000Z"])
        #expect(offline.code == 0, "\(offline.error)")
        #expect(offline.output.contains("nothing to do"), "\(offline.output)")
        #expect(
            try String(contentsOfFile: snapshot, encoding: .utf8).contains(#""description" : "waits for !1 to merge""#))
    }

    /// A saved plan's status is not sent to a head that moved before `apply`.
    ///
    /// The plan sets it on the child's head `b…`; the head moves to `c…`. The re-check still matches (still a draft, still stacked), but the command would
    /// land on a commit nobody judged: nothing is sent, the output says why, and the next run
    /// sets it on `c…`.
    @Test func aSavedPlansStatusIsNotSentToAHeadThatMoved() async throws {
        try await SimulatorProcess.run(state: forge, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            let plan = Scratch.url("stack-plan-\(UUID().uuidString).json").path
            let planned = await runBot(
                against: simulator, ["plan", example.path, "--state-dir", state.folder, "-o", plan])
            #expect(planned.code == 0, "\(planned.error)")
            try await simulator.control(#"{"push": {"repo": "krz/app", "branch": "feat-2", "sha": "\#(sha("c"))"}}"#)
            let applied = await runBot(
                ["apply", plan, "--state-dir", state.folder, "--url", simulator.baseURL.absoluteString],
                environment: ["GITBAY_TOKEN": simulator.token])
            #expect(applied.code == 0, "\(applied.output)\(applied.error)")
            #expect(
                applied.output.contains(
                    "skipped: stack-waits set-status on krz/app!2 (not sent: the item moved since the plan: it planned "
                        + "`status set krz/app \(sha("b"))"), "\(applied.output)")
            #expect(try simulator.journalEntries().isEmpty)
            let next = await runBot(against: simulator, ["run", example.path, "--state-dir", state.folder])
            #expect(next.code == 0)
            let sent = try simulator.journalEntries().compactMap { ($0["argv"] as? [String])?.joined(separator: " ") }
            #expect(sent == [Self.statusSet("c", "waits for !1 to merge")])
        }
    }

    @Test func theExampleChecks() async {
        let checked = await runBot(["check", example.path])
        #expect(checked.code == 0, "\(checked.output)\(checked.error)")
    }

    /// `check` reports a bad state, a `ci/` context and a misspelt parameter where they are written.
    @Test func checkPointsAtEachMistake() async throws {
        let file = Scratch.url("bad-status-\(UUID().uuidString).yml")
        try """
        scope: owner:krz
        rules:
          - name: bad
            on: merge_requests
            when: [state = open]
            do:
              - set-status:
                  context: CI/stack
                  state: pendin
                  descripton: x
        """.write(to: file, atomically: true, encoding: .utf8)
        let checked = await runBot(["check", file.path])
        #expect(checked.code == 78)
        let text = checked.output + checked.error
        #expect(text.contains(":8:20: error: a 'ci/' context is gitbay's builds'"))
        #expect(text.contains(":9:18: error: 'pendin' is not a state") && text.contains("did you mean 'pending'?"))
        #expect(text.contains(":10:11: error: 'set-status' takes no 'descripton'; did you mean 'description'?"))
    }

    /// Offline, a forge-state file's `statuses` are what `status list` would answer: a plan of the
    /// snapshot judges the status done when the child's head carries it, and due when its text differs.
    @Test(arguments: [("waits for !1 to merge", false), ("waits for !9 to merge", true)])
    func aSnapshotsStatusesDecideWhetherItIsDone(recorded: String, due: Bool) async throws {
        let statuses =
            #""statuses": {"\#(sha("b"))": [{"context": "gitbay-bot/stack", "state": "success", "description": "\#(recorded)"}]},"#
        let snapshot = Scratch.url("stack-status-\(UUID().uuidString).json")
        try forge.replacingOccurrences(of: #""merge_requests": ["#, with: statuses + #" "merge_requests": ["#)
            .write(to: snapshot, atomically: true, encoding: .utf8)
        let plan = await runBot(["plan", example.path, "--snapshot", snapshot.path])
        #expect(plan.code == 0, "\(plan.error)")
        #expect(plan.output.contains(Self.statusSet("b", "'waits for !1 to merge'")) == due, "\(plan.output)")
    }
}

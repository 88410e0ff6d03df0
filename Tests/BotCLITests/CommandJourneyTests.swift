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
        let options = ["--clock", "frozen", "--user-token", "alice=\(ForgeActivity.personToken)"]
        let bobToken = "gb_" + String(repeating: "c", count: 64)
        try await SimulatorProcess.run(state: forge, options: options + ["--user-token", "bob=\(bobToken)"]) {
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
}

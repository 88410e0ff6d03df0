import BuiltinPlugins
import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

/// One stale issue whose last word is the bot's: nothing is due until someone comments.
private let quietForge = """
    {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
     "users": ["triage-bot", "alice"],
     "repos": [{"path": "krz/app", "default_branch": "main", "branches": {"main": "\(String(repeating: "1", count: 40))"},
       "labels": [{"name": "stale"}],
       "issues": [{"number": 1, "title": "old bug", "state": "open", "author": "alice", "labels": ["stale"],
                   "created_at": "2025-01-01T00:00:00.000Z", "updated_at": "2025-01-02T00:00:00.000Z",
                   "comments": [{"author": "triage-bot", "body": "stale notice", "kind": "comment",
                                 "created_at": "2025-01-02T00:00:00.000Z"}]}]}]}
    """

/// The argv of every write the bot's account applied.
private func botWrites(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true && $0["user"] as? String == "triage-bot" }
        .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
}

/// The watcher's schedule, driven by its own clock: polls an interval after each pass's start,
/// a full pass once `--full-every` has gone by on that clock, reloads before the next pass.
@Suite struct WatchScheduleTests {
    private let options =
        ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]
        + ForgeActivity.simulatorOptions

    @Test func itPollsEveryIntervalAndRunsAFullPassOnceFullEveryHasGoneByOnItsClock() async throws {
        try await SimulatorProcess.run(state: quietForge, options: options) { simulator in
            let watcher = ClockedWatcher(simulator, rules: try scopedRuleFolder(unmarkStaleRule))
            #expect(try await watcher.nextWait() == .seconds(30), "the first poll is an interval after the start")
            #expect(watcher.passes == ["full"])
            #expect(try botWrites(simulator).isEmpty)

            let commented = try await simulator.write(
                ["issue", "comment", "krz/app", "1", "--message", "still broken"], token: ForgeActivity.personToken)
            #expect(commented == 200)
            #expect(try botWrites(simulator).isEmpty, "nothing moves before the clock does")
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() == .seconds(60))
            #expect(watcher.passes == ["full", "events"])
            // The pass handed its write to the drain, which sends it while the watcher idles.
            let unmarked = try await eventually(within: 60) { try botWrites(simulator).count == 1 }
            #expect(unmarked)
            #expect(try botWrites(simulator) == ["issue label krz/app 1 --remove stale"])

            watcher.clock.advance(to: .seconds(60))
            #expect(try await watcher.nextWait() == .seconds(90))
            #expect(watcher.passes == ["full", "events", "idle"], "the bot's own label event triggers nothing")

            // No poll ran between 60 s and 900 s: the clock jumped, as after a suspended VM. The
            // full pass that fell due runs at once, and the next poll is an interval after it.
            watcher.clock.advance(to: .seconds(900))
            #expect(try await watcher.nextWait() == .seconds(930))
            #expect(watcher.passes == ["full", "events", "idle", "full"])
            #expect(try botWrites(simulator).count == 1, "the full pass finds nothing more to do")
            #expect(await watcher.stop() == 130)
        }
    }

    @Test func aReloadAskedForWhileIdleIsTakenAtTheNextPoll() async throws {
        try await SimulatorProcess.run(state: quietForge, options: options) { simulator in
            let watcher = ClockedWatcher(simulator, rules: try scopedRuleFolder(unmarkStaleRule))
            #expect(try await watcher.nextWait() == .seconds(30))
            let seen =
                "scope: repo:krz/app\nrules:\n  - name: seen\n    on: issues\n    when:\n"
                + "      - labels has stale\n    do:\n      - add-label: seen\n"
            try seen.write(
                toFile: watcher.rules + "/rules.yml", atomically: true, encoding: .utf8)
            #expect(watcher.control.requestReload())
            #expect(!watcher.console.error.contains("rules reloaded"), "a reload does not end the idle spell")
            watcher.clock.advance(to: .seconds(30))
            #expect(try await watcher.nextWait() == .seconds(60))
            #expect(watcher.console.error.contains("note: rules reloaded: 1 rules"), "\(watcher.console.error)")
            #expect(watcher.passes == ["full", "idle"], "the poll after the reload judges what changed only")
            #expect(await watcher.stop() == 130)
        }
    }
}

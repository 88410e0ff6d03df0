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

/// A `watch` run in-process on a ``ManualWatchClock`` against the simulator.
///
/// Every wait of the watcher is a step of the test: it waits until the watcher waits, reads what
/// it printed, and moves the clock. No interval passes in real time, so the schedule is tested to
/// the second on any machine, however busy.
private final class ClockedWatcher: Sendable {
    let clock = ManualWatchClock()
    let console = RecordingConsole()
    let control = CommandControl()
    let rules: String
    private let task: Task<Int32, Never>

    init(_ simulator: SimulatorProcess, rules: String) {
        self.rules = rules
        let arguments = [
            "watch", rules, "--state-dir", BotState().folder, "--interval", "30s", "--full-every", "15m", "--url",
            simulator.baseURL.absoluteString, "--rate-limit", "6000", "--format", "json",
        ]
        let environment = testEnvironment(["GITBAY_TOKEN": simulator.token])
        let (clock, console, control) = (clock, console, control)
        task = Task {
            await BotCLI.run(
                arguments, environment: environment, console: console, registry: BuiltinPlugins.registry,
                control: control, clock: clock)
        }
    }

    /// The instant the watcher waits for next, once it waits; fails the test when it never does.
    func nextWait() async throws -> Duration {
        try #require(try await clock.nextWait(), "the watcher never waited: \(console.error)")
    }

    /// Each pass's kind, in order.
    var passes: [String] {
        console.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["pass"] as? String
        }
    }

    /// Stops the watcher as a signal would, and answers its exit code.
    func stop() async -> Int32 {
        task.cancel()
        return await task.value
    }
}

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

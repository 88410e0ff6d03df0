import BotCLI
import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

/// What the failure drills share: the demo forge, the shipped rules and the bot's runs on them.
///
/// The simulator is fast enough that a drill's cost is its faults, and the checks say that every
/// write landed exactly once in the end. The drills are suites nested in it, so they name these
/// plainly.
enum FaultDrill {
    static let root = SimulatorProcess.repositoryRoot
    static let demo = root.appendingPathComponent("examples/demo-forge.json")
    static let rules = root.appendingPathComponent("rules").path
    static let now = "2026-11-29T12:00:00.000Z"
    /// The demo plan's writes, each of which must land exactly once across a drill's runs.
    static let demoWrites = 11
    /// A simulator fast enough that a drill's cost is its faults, not the 120-a-minute pacing.
    static let fastSimulator = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

    static func argv(_ entry: [String: Any]) -> String {
        ((entry["argv"] as? [String]) ?? []).joined(separator: " ")
    }

    /// The argv of every write the simulator applied, with how many times.
    static func applied(_ simulator: SimulatorProcess) throws -> [String: Int] {
        try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.reduce(into: [:]) { counts, entry in
            counts[argv(entry), default: 0] += 1
        }
    }

    /// The connection options of every drill's bot.
    static func connection(_ simulator: SimulatorProcess) -> [String] {
        ["--url", simulator.baseURL.absoluteString, "--now", now, "--rate-limit", "6000"]
    }

    static func bot(
        _ simulator: SimulatorProcess, _ arguments: [String]
    ) async -> (
        code: Int32, output: String, error: String
    ) {
        await runBot(arguments + connection(simulator), environment: ["GITBAY_TOKEN": simulator.token])
    }

    /// One of the simulator's counters of requests in progress: `held` by a `hold` fault, or `in_flight`.
    static func counter(_ name: String, _ simulator: SimulatorProcess) async throws -> Int {
        try #require(try await simulator.stats()[name] as? Int)
    }

    /// Waits until the simulator holds exactly `count` requests, the bot waiting on their answer.
    static func holding(_ count: Int, _ simulator: SimulatorProcess) async throws -> Bool {
        try await eventually { try await counter("held", simulator) == count }
    }

    /// Waits until the simulator has answered every request, so each write it let go is applied or refused.
    static func settled(_ simulator: SimulatorProcess) async throws -> Bool {
        try await eventually { try await counter("in_flight", simulator) == 0 }
    }

    /// After a stop: the server saw one write, the one in flight, and the bot journaled it as applied;
    /// nothing was sent after it, and the next run finishes the rest exactly once.
    static func onlyTheWriteInFlightLanded(_ simulator: SimulatorProcess, state: BotState) async throws {
        #expect(try await settled(simulator))
        let sent = try simulator.journalEntries().map(argv).sorted()
        let botApplied = try await state.commands(server: simulator.baseURL, outcome: "applied").sorted()
        #expect(sent.count == 1, "\(sent)")
        #expect(sent == botApplied)
        try await finishesExactlyOnce(simulator, state: state)
    }

    /// `run` of the shipped rules in this process, in a task of its own that the test can cancel.
    static func inProcessRun(
        _ simulator: SimulatorProcess, state: BotState, control: CommandControl, console: RecordingConsole
    ) -> Task<Int32, Never> {
        Task {
            await BotCLI.run(
                ["run", rules, "--state-dir", state.folder] + connection(simulator),
                environment: testEnvironment(["GITBAY_TOKEN": simulator.token]), console: console, control: control)
        }
    }

    /// Runs the bot once with a state folder under `fault`; a request a `hold` fault holds goes on once the bot
    /// waits on it: an answer that comes late, however late.
    static func runFirst(
        _ simulator: SimulatorProcess, state: BotState, fault: String
    ) async throws -> (code: Int32, output: String, error: String) {
        async let run = bot(simulator, ["run", rules, "--state-dir", state.folder])
        if fault.hasPrefix("hold") {
            #expect(try await holding(1, simulator))
            try await simulator.control(#"{"release":1}"#)
        }
        return await run
    }

    /// Runs the bot again without faults and checks that every demo write then landed exactly once
    /// and that a further plan has nothing left.
    static func finishesExactlyOnce(_ simulator: SimulatorProcess, state: BotState) async throws {
        try await simulator.control(#"{"faults":[],"revoke":false,"read_only":false}"#)
        let again = await bot(simulator, ["run", rules, "--state-dir", state.folder])
        #expect(again.code == 0, "\(again.output)\(again.error)")
        let writes = try applied(simulator)
        #expect(writes.count == demoWrites, "\(writes)")
        #expect(writes.values.allSatisfy { $0 == 1 }, "\(writes)")
        let plan = await bot(simulator, ["plan", rules])
        #expect(plan.code == 0)
        #expect(plan.output.contains("nothing to do"), "\(plan.output)")
        // Nor does the journal leave anything for a further run to finish.
        let third = await bot(simulator, ["run", rules, "--state-dir", state.folder])
        #expect(third.code == 0)
        #expect(third.output.hasSuffix("nothing to do\n"), "\(third.output)")
    }

    /// The forge of a new user's report (`Fixtures/one-forge.json`): krz/one#1, open since June with no
    /// comment, and the 30-day stale rules that label it and post a notice (two writes).
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static let oneIssueForge = fixtures.appendingPathComponent("one-forge.json")
    static let staleRules = fixtures.appendingPathComponent("stale-30d.yml").path
}

/// A forge of one repository holding `count` open issues nobody touched since February.
func idleForge(issues count: Int) throws -> URL {
    let issues: [[String: Any]] = (1...count).map {
        [
            "number": $0, "title": "idle issue \($0)", "state": "open", "author": "alice",
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-02-01T00:00:00.000Z",
        ]
    }
    let forge: [String: Any] = [
        "format": "gitbay-forge-state/1", "now": FaultDrill.now, "me": "triage-bot", "users": ["triage-bot", "alice"],
        "repos": [["path": "krz/big", "labels": [["name": "stale"]], "issues": issues]],
    ]
    let file = Scratch.url("big-forge-\(UUID()).json")
    try JSONSerialization.data(withJSONObject: forge).write(to: file)
    return file
}

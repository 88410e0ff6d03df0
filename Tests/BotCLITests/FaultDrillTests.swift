import BotCLI
import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let now = "2026-11-29T12:00:00.000Z"
/// The demo plan's writes, each of which must land exactly once across a drill's runs.
private let demoWrites = 11
/// A simulator fast enough that a drill's cost is its faults, not the 120-a-minute pacing.
private let fastSimulator = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

private func argv(_ entry: [String: Any]) -> String {
    ((entry["argv"] as? [String]) ?? []).joined(separator: " ")
}

/// The argv of every write the simulator applied, with how many times.
private func applied(_ simulator: SimulatorProcess) throws -> [String: Int] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.reduce(into: [:]) { counts, entry in
        counts[argv(entry), default: 0] += 1
    }
}

/// The connection options of every drill's bot.
private func connection(_ simulator: SimulatorProcess) -> [String] {
    ["--url", simulator.baseURL.absoluteString, "--now", now, "--rate-limit", "6000"]
}

private func bot(
    _ simulator: SimulatorProcess, _ arguments: [String]
) async -> (
    code: Int32, output: String, error: String
) {
    await runBot(arguments + connection(simulator), environment: ["GITBAY_TOKEN": simulator.token])
}

/// One of the simulator's counters of requests in progress: `held` by a `hold` fault, or `in_flight`.
private func counter(_ name: String, _ simulator: SimulatorProcess) async throws -> Int {
    try #require(try await simulator.stats()[name] as? Int)
}

/// Waits until the simulator holds exactly `count` requests, the bot waiting on their answer.
private func holding(_ count: Int, _ simulator: SimulatorProcess) async throws -> Bool {
    try await eventually { try await counter("held", simulator) == count }
}

/// Waits until the simulator has answered every request, so each write it let go is applied or refused.
private func settled(_ simulator: SimulatorProcess) async throws -> Bool {
    try await eventually { try await counter("in_flight", simulator) == 0 }
}

/// After a stop: the server saw one write, the one in flight, and the bot journaled it as applied;
/// nothing was sent after it, and the next run finishes the rest exactly once.
private func onlyTheWriteInFlightLanded(_ simulator: SimulatorProcess, state: BotState) async throws {
    #expect(try await settled(simulator))
    let sent = try simulator.journalEntries().map(argv).sorted()
    let botApplied = try await state.commands(server: simulator.baseURL, outcome: "applied").sorted()
    #expect(sent.count == 1, "\(sent)")
    #expect(sent == botApplied)
    try await finishesExactlyOnce(simulator, state: state)
}

/// `run` of the shipped rules in this process, in a task of its own that the test can cancel.
private func inProcessRun(
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
private func runFirst(
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
private func finishesExactlyOnce(_ simulator: SimulatorProcess, state: BotState) async throws {
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

/// A forge of one repository holding `count` open issues nobody touched since February.
func idleForge(issues count: Int) throws -> URL {
    let issues: [[String: Any]] = (1...count).map {
        [
            "number": $0, "title": "idle issue \($0)", "state": "open", "author": "alice",
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-02-01T00:00:00.000Z",
        ]
    }
    let forge: [String: Any] = [
        "format": "gitbay-forge-state/1", "now": now, "me": "triage-bot", "users": ["triage-bot", "alice"],
        "repos": [["path": "krz/big", "labels": [["name": "stale"]], "issues": issues]],
    ]
    let file = Scratch.url("big-forge-\(UUID()).json")
    try JSONSerialization.data(withJSONObject: forge).write(to: file)
    return file
}

/// The forge of a new user's report (`Fixtures/one-forge.json`): krz/one#1, open since June with no
/// comment, and the 30-day stale rules that label it and post a notice (two writes).
private let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
private let oneIssueForge = fixtures.appendingPathComponent("one-forge.json")
private let staleRules = fixtures.appendingPathComponent("stale-30d.yml").path

/// A wait the bot can be in, after its first write, before it sends the second.
///
/// Each lasts about a minute, so a SIGTERM sent as the bot notes it lands inside it on any
/// machine, however busy. The client's backoff (0.5 s to 4 s) is not among them: a busy machine
/// let one run out before the signal came (the fifth attempt was sent), so a stop during a backoff
/// is proven where no real time passes, `ClientStopTests` with a clock only a cancel ends.
enum WaitAfterTheFirstWrite: String, CaseIterable, Sendable {
    /// Its own pacing: `--rate-limit 10` is a write a minute.
    case pacing
    /// The server's 429 with `Retry-After: 60` to the second write.
    case retryAfter

    /// The simulator's options.
    var simulator: [String] {
        switch self {
        case .pacing: return ["--clock", "frozen"]
        case .retryAfter: return fastSimulator + ["--fault", "429,method=POST,after=1,retry_after=60"]
        }
    }

    /// What the simulator's journal holds when the bot is stopped in the noted wait: the label,
    /// and the comment's attempts the server refused before it (none while pacing; the one a 429
    /// answered).
    var sentBeforeTheWait: [String] {
        let label = "issue label krz/one 1 --add stale"
        let comment = "issue comment krz/one 1 --file -"
        switch self {
        case .pacing: return [label]
        case .retryAfter: return [label, comment]
        }
    }

    /// The bot's `--rate-limit`.
    var rateLimit: String { self == .pacing ? "10" : "6000" }

    /// A part of the note the bot prints as the wait begins.
    var note: String {
        switch self {
        case .pacing: return " s for gitbay's write budget (1 a minute)\n"
        case .retryAfter: return "note: waiting 60 s as the server asked (429)"
        }
    }
}

/// Failure drills: the bot killed, interrupted, fed garbage, refused halfway or flooded with items.
@Suite struct FaultDrillTests {
    /// SIGKILL with the fourth write's intent committed and the write held in flight; then the
    /// server either runs it (`release`: killed between the write and its result) or never sees
    /// it (`drop`: killed between the intent and the write reaching the server).
    @Test(arguments: [("release", 4), ("drop", 3)])
    func aRunKilledMidApplyIsFinishedByTheNextRunExactlyOnce(fate: String, landed: Int) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        // Three writes land; the fourth is held in flight, the bot waiting on it, when the bot is killed.
        let options = fastSimulator + ["--fault", "hold,method=POST,after=3"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let child = try BotProcess(
                ["run", rules, "--state-dir", state.folder] + connection(simulator),
                environment: ["GITBAY_TOKEN": simulator.token])
            let inFlight = try await holding(1, simulator)
            child.send(SIGKILL)
            let killed = try await child.finish()
            #expect(inFlight)
            #expect(killed.reason == .uncaughtSignal && killed.status == SIGKILL)
            #expect(try applied(simulator).values.reduce(0, +) == 3)
            try await simulator.control(#"{"\#(fate)":1}"#)
            #expect(try await settled(simulator))
            #expect(try applied(simulator).values.reduce(0, +) == landed)
            // The intent was on record before the write went out.
            let unrecorded = try await state.commands(server: simulator.baseURL, outcome: "unrecorded")
            #expect(unrecorded.count == 1, "\(unrecorded)")
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    /// SIGINT from a person, SIGTERM from systemd or a cancelled CI job, SIGHUP from a closed
    /// terminal: each stops the run cleanly with 128 + the signal's number.
    @Test(arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] as [(Int32, Int32)])
    func aStopSignalFinishesTheWriteInFlightSendsNoMoreAndExitsWith128PlusIt(
        signal: Int32, code: Int32
    ) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        // The first write is held in flight when the signal comes; then it goes on, and so would any other.
        let options = fastSimulator + ["--fault", "hold,method=POST"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let child = try BotProcess(
                ["run", rules, "--state-dir", state.folder] + connection(simulator),
                environment: ["GITBAY_TOKEN": simulator.token])
            let inFlight = try await holding(1, simulator)
            let note = try await child.stop(with: signal)
            try await simulator.control(#"{"faults":[],"release":1}"#)
            let ended = try await child.finish()
            #expect(inFlight)
            #expect(note.contains("received: stopping after the write in flight\n"), "\(note)")
            #expect(ended.reason == .exit && ended.status == code, "\(ended.output)\(ended.error)")
            try await onlyTheWriteInFlightLanded(simulator, state: state)
        }
    }

    /// The seconds of the last wait `text` notes ("note: waiting 4 s ...").
    static func notedWait(in text: String) -> Double? {
        let notes = text.split(separator: "\n").filter { $0.hasPrefix("note: waiting ") }
        return notes.last.flatMap { Double($0.dropFirst("note: waiting ".count).prefix { $0 != " " }) }
    }

    /// SIGTERM while the bot waits to send its second write, for the write budget or for a
    /// `Retry-After`: the wait ends at once, the write is not sent (the journal says
    /// not-sent), the note says nothing was in flight, the exit is 143, and the next run finishes it.
    @Test(arguments: WaitAfterTheFirstWrite.allCases)
    func aStopDuringAWaitEndsItAtOnceAndSendsNothingMore(wait: WaitAfterTheFirstWrite) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        try await SimulatorProcess.run(stateFile: oneIssueForge, options: wait.simulator) { simulator in
            let state = BotState()
            let arguments = [
                "run", staleRules, "--scope", "repo:krz/one", "--state-dir", state.folder, "--url",
                simulator.baseURL.absoluteString, "--now", now, "--rate-limit", wait.rateLimit,
            ]
            let child = try BotProcess(arguments, environment: ["GITBAY_TOKEN": simulator.token])
            // The stop goes out as soon as the wait is noted; what was sent is read after, and is
            // exactly what came before the wait.
            let waiting = try await child.waitForError(containing: wait.note)
            let noticed = ContinuousClock.now
            let note = try await child.stop(with: SIGTERM)
            let ended = try await child.finish()
            let noted = try #require(Self.notedWait(in: waiting), "\(waiting)")
            let sent = try simulator.journalEntries().map(argv)
            #expect(sent == wait.sentBeforeTheWait, "\(sent)")
            let seconds = (ContinuousClock.now - noticed).seconds
            #expect(ended.reason == .exit && ended.status == 143, "\(ended.output)\(ended.error)")
            // The bot notes a wait as it begins it, so one the stop did not end would have the bot
            // exit no sooner than the noted seconds after the note: the floor, whatever the load
            // (55 to 60 s of pacing or Retry-After).
            #expect(seconds < noted, "exited \(seconds) s after noting a wait of \(noted) s")
            #expect(note.contains("note: SIGTERM received: stopping: nothing in flight\n"), "\(waiting)\(note)")
            #expect(try await settled(simulator))
            #expect(ended.output.contains("not-run: stale-mark comment on krz/one#1 (stopped before it was sent)"))
            let comment = try await state.history(server: simulator.baseURL).filter {
                $0["action"] as? String == "comment"
            }
            #expect(comment.map { $0["outcome"] as? String } == ["not-sent"], "\(comment)")

            // The next run finishes the entry: the comment, once.
            try await simulator.control(#"{"faults":[]}"#)
            let again = await runBot(
                Array(arguments.dropLast(2)) + ["--rate-limit", "6000"], environment: ["GITBAY_TOKEN": simulator.token])
            #expect(again.code == 0, "\(again.output)\(again.error)")
            let writes = try applied(simulator)
            #expect(
                writes == ["issue label krz/one 1 --add stale": 1, "issue comment krz/one 1 --file -": 1], "\(writes)")
        }
    }

    /// The same stop in-process, as tests, benchmarks and embedding programs make it: cancelling
    /// the command's task finishes the write in flight, records it, and sends nothing after it.
    @Test(arguments: [(SIGTERM, 143), (nil, 130)] as [(Int32?, Int32)])
    func cancellingAnInProcessRunFinishesTheWriteInFlightAndRecordsIt(signal: Int32?, code: Int32) async throws {
        let options = fastSimulator + ["--fault", "hold,method=POST"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let (state, control, console) = (BotState(), CommandControl(), RecordingConsole())
            let run = inProcessRun(simulator, state: state, control: control, console: console)
            let inFlight = try await holding(1, simulator)
            if let signal { control.recordStop(by: signal) }
            run.cancel()
            try await simulator.control(#"{"faults":[],"release":1}"#)
            let ended = await run.value
            #expect(inFlight)
            #expect(ended == code, "\(console.output)\(console.error)")
            try await onlyTheWriteInFlightLanded(simulator, state: state)
        }
    }

    /// A stop while the run still reads ends it there: the read in flight is given up, nothing is
    /// written, and the exit code is the signal's.
    @Test func cancellingAnInProcessRunWhileItReadsWritesNothing() async throws {
        let options = fastSimulator + ["--fault", "hold,method=GET,times=1"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let (state, control, console) = (BotState(), CommandControl(), RecordingConsole())
            let run = inProcessRun(simulator, state: state, control: control, console: console)
            let inFlight = try await holding(1, simulator)
            control.recordStop(by: SIGINT)
            run.cancel()
            let ended = await run.value
            try await simulator.control(#"{"faults":[],"release":1}"#)
            #expect(inFlight)
            #expect(ended == 130, "\(console.output)\(console.error)")
            #expect(console.error.hasPrefix("stopped: "), "\(console.error)")
            #expect(try await settled(simulator))
            #expect(try simulator.journalEntries().isEmpty)
        }
    }

    /// A stop means stop: the summary issue is not written after a signal (it would be a write the
    /// journal does not know), and the exit code stays the signal's even though publishing it
    /// would have failed.
    @Test func aStoppedRunLeavesTheSummaryIssueAloneAndKeepsItsExitCode() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: BotProcess.executable.path), "build gitbay-bot")
        let options = fastSimulator + ["--fault", "hold,method=POST"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let child = try BotProcess(
                ["run", rules, "--state-dir", state.folder, "--summary-issue", "krz/gitbay"] + connection(simulator),
                environment: ["GITBAY_TOKEN": simulator.token])
            let inFlight = try await holding(1, simulator)
            try await child.stop(with: SIGTERM)
            try await simulator.control(#"{"faults":["500,command=issue create"],"release":1}"#)
            let ended = try await child.finish()
            #expect(inFlight)
            #expect(ended.reason == .exit && ended.status == 143, "\(ended.output)\(ended.error)")
            #expect(ended.error.contains("the summary issue is left alone"), "\(ended.error)")
            #expect(try await settled(simulator))
            #expect(try simulator.journalEntries().map(argv).count == 1)
        }
    }

    @Test(arguments: [
        "malformed,method=GET,times=1", "truncated,method=GET,times=1", "truncated,honest=1,method=GET,times=1",
        "huge,method=GET,times=1", "hold,method=GET,times=1",
    ])
    func aBadAnswerToAReadIsRetriedAndTheRunFinishes(fault: String) async throws {
        // A huge answer (20 MiB of valid, padded JSON) is accepted: the client has no size cap of
        // its own, and its 30 s deadline bounds how long any answer can take.
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator + ["--fault", fault]) { simulator in
            let state = BotState()
            let first = try await runFirst(simulator, state: state, fault: fault)
            #expect(first.code == 0, "\(first.output)\(first.error)")
            let writes = try applied(simulator)
            #expect(writes.count == demoWrites && writes.values.allSatisfy { $0 == 1 }, "\(writes)")
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    @Test func readsThatStayGarbageStopTheRunBeforeAnyWrite() async throws {
        let options = fastSimulator + ["--fault", "malformed,method=GET"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let first = await bot(simulator, ["run", rules, "--state-dir", state.folder])
            #expect(first.code == 1, "\(first.output)\(first.error)")
            #expect(first.error.contains("the server's answer is not a gitbay reply"), "\(first.error)")
            #expect(try simulator.journalEntries().isEmpty)
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    @Test(arguments: [
        "malformed,method=POST,times=2", "truncated,method=POST,times=2", "truncated,honest=1,method=POST,times=2",
        "huge,method=POST,times=2", "hold,method=POST,times=1",
    ])
    func aBadAnswerToAWriteNeverDoublesIt(fault: String) async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator + ["--fault", fault]) { simulator in
            let state = BotState()
            let first = try await runFirst(simulator, state: state, fault: fault)
            #expect(first.code == 0 || first.code == 3, "\(first.output)\(first.error)")
            #expect(try applied(simulator).values.allSatisfy { $0 == 1 })
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    @Test func aTokenRevokedHalfwayStopsTheRunWithoutShowingTheToken() async throws {
        let options = fastSimulator + ["--fault", "401,after=3,method=POST"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            let first = await bot(simulator, ["run", rules, "--state-dir", state.folder])
            #expect(first.code == 1, "\(first.output)\(first.error)")
            #expect(first.error.contains("token"), "\(first.error)")
            #expect(!(first.output + first.error).contains(simulator.token))
            let writes = try applied(simulator)
            #expect(writes.values.reduce(0, +) == 3, "\(writes)")
            #expect(writes.values.allSatisfy { $0 == 1 })
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    @Test func aServerTurningReadOnlyHalfwayFailsTheRestAndTheNextRunFinishes() async throws {
        // Three writes land; the switch comes while the fourth is held in flight.
        let options = fastSimulator + ["--fault", "hold,method=POST,after=3"]
        try await SimulatorProcess.run(stateFile: demo, options: options) { simulator in
            let state = BotState()
            async let first = bot(simulator, ["run", rules, "--state-dir", state.folder])
            let reached = try await holding(1, simulator)
            try await simulator.control(#"{"read_only":true,"faults":[],"release":1}"#)
            let result = await first
            #expect(reached)
            #expect(try applied(simulator).values.reduce(0, +) == 3)
            #expect(result.code == 3, "\(result.output)\(result.error)")
            let failed = try await state.commands(server: simulator.baseURL, outcome: "failed")
            #expect(!failed.isEmpty)
            #expect(result.output.contains("failed"), "\(result.output)")
            let refused = try simulator.journalEntries().filter { $0["applied"] as? Bool == false }
            #expect(refused.count == failed.count)
            try await finishesExactlyOnce(simulator, state: state)
        }
    }

    @Test func tenThousandIdleIssuesTripTheGuards() async throws {
        let forge = try idleForge(issues: 10_000)
        defer { try? FileManager.default.removeItem(at: forge) }
        let offline = ["plan", rules, "--snapshot", forge.path, "--max-actions", "50"]

        let held = await runBot(offline + ["--detailed-exitcode"])
        #expect(held.code == 0, "\(held.error)")
        #expect(held.output.contains("tripwire: rule 'mark-stale' would act on 10000 of 10000 issues"))
        #expect(held.output.hasSuffix("0 commands pending (0 rules, 0 entries), 20000 held back\n"))

        let forced = await runBot(offline + ["--force", "--detailed-exitcode"])
        #expect(forced.code == 2, "\(forced.error)")
        #expect(forced.output.contains("--max-actions 50 reached: 19950 more commands left for the next run"))
        #expect(forced.output.hasSuffix("50 commands pending (1 rule, 25 entries), 19950 held back\n"))

        let plain = await runBot(offline + ["--force"])
        #expect(plain.code == 0)
    }
}

import BotCLI
import Foundation
import GitbayClient
import GitbayTestSupport
import Testing

extension FaultDrill {
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

    /// Stop drills: the bot killed mid-apply, stopped by a signal in flight or in a wait, or cancelled
    /// in-process; the write in flight lands once, nothing is sent after it, and the next run finishes.
    @Suite struct Stops {
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
                    Array(arguments.dropLast(2)) + ["--rate-limit", "6000"],
                    environment: ["GITBAY_TOKEN": simulator.token])
                #expect(again.code == 0, "\(again.output)\(again.error)")
                let writes = try applied(simulator)
                #expect(
                    writes == ["issue label krz/one 1 --add stale": 1, "issue comment krz/one 1 --file -": 1],
                    "\(writes)")
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
                    ["run", rules, "--state-dir", state.folder, "--summary-issue", "krz/gitbay"]
                        + connection(simulator),
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

    }
}

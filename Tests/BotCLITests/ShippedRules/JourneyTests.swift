import BotCLI
import Foundation
import GitbayTestSupport
import RuleEngine
import Testing

private let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
private let maintainerToken = "gb_" + String(repeating: "m", count: 64)
private let start = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z
private let day: TimeInterval = 86_400
private let simulatorOptions = [
    "--clock", "frozen", "--api-rate", "100000", "--write-rate", "100000", "--user-token",
    "maintainer=\(maintainerToken)",
]

/// gitbay's millisecond timestamp of `date`.
private func stamp(_ date: Date) -> String { JourneyForge.stamp(date) }

private typealias JourneyIssue = JourneyForge.Issue

/// The journey forge holding `issues`, from the journey's start.
private func journeyForge(_ issues: [JourneyIssue]) throws -> String {
    try JourneyForge.state(issues, start: start)
}

/// Runs the bot in-process against `simulator` at `now` with the shipped rules.
private func run(
    _ simulator: SimulatorProcess, state: BotState, at now: Date, _ extra: [String] = []
) async -> (code: Int32, output: String, error: String) {
    await runBot(
        against: simulator, ["run", rules, "--scope", "repo:krz/app", "--state-dir", state.folder] + extra,
        now: stamp(now))
}

/// The applied writes of the simulator's journal, each as its argv line, in order.
private func applied(_ simulator: SimulatorProcess) throws -> [String] {
    try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.map {
        (($0["argv"] as? [String]) ?? []).joined(separator: " ")
    }
}

/// What the forge holds of each issue that a run can change: state, labels, and the bot's
/// comments by their first line; compared between forges to tell whether two ways of running
/// left the same result.
private func outcome(_ simulator: SimulatorProcess) async throws -> [String] {
    let forge = try await simulator.forge()
    let repos = forge["repos"] as? [[String: Any]] ?? []
    return repos.flatMap { repo in
        (repo["issues"] as? [[String: Any]] ?? []).map { issue in
            let comments = (issue["comments"] as? [[String: Any]] ?? []).filter {
                $0["author"] as? String == "triage-bot"
            }
            .map { ($0["body"] as? String ?? "").split(separator: "\n").first.map(String.init) ?? "" }
            return "#\(issue["number"] ?? 0) \(issue["state"] ?? "") \(issue["labels"] ?? []) \(comments)"
        }
    }.sorted()
}

/// Whole journeys of a new user with the shipped rules against the simulator, crossing features:
/// people's activity and the stale lifecycle, guards across many runs, stops and the journal.
@Suite(.serialized) struct JourneyTests {
    /// gitbay does not say who edited an issue: a move of `updated_at` nobody explains is taken for
    /// a person's, so the shipped rules leave alone an issue edited 10 or 59 days ago and mark
    /// only the one nobody touched.
    @Test func theShippedRulesLeaveAloneIssuesSomeoneEdited() async throws {
        let forge = try journeyForge([
            JourneyIssue(number: 1, updated: 10), JourneyIssue(number: 2, updated: 59), JourneyIssue(number: 3),
        ])
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let result = await run(simulator, state: BotState(), at: start)
            #expect(result.code == 0, "\(result.output)\(result.error)")
            let writes = try applied(simulator)
            #expect(writes == ["issue label krz/app 3 --add stale", "issue comment krz/app 3 --file -"])
        }
    }

    /// The new user's report (`Fixtures/solo-forge.json`, `stale-30d.yml`) never closes unnoticed.
    ///
    /// krz/solo#1's only comment is the bot's own question. Under `--max-actions 1` the two-command mark is held
    /// whole (it used to add the label alone), the next run marks it with its notice, and the
    /// close, keyed on the bot's newest comment, waits.
    @Test func aGuardNeverLetsTheCloseOutrunTheNotice() async throws {
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let forge = fixtures.appendingPathComponent("solo-forge.json")
        let staleRules = fixtures.appendingPathComponent("stale-30d.yml").path
        try await SimulatorProcess.run(stateFile: forge, options: simulatorOptions) { simulator in
            let state = BotState()
            let arguments = ["run", staleRules, "--scope", "repo:krz/solo", "--state-dir", state.folder]
            let held = await runBot(against: simulator, arguments + ["--max-actions", "1"])
            #expect(held.code == 3, "\(held.output)")
            #expect(try applied(simulator).isEmpty)
            for _ in 0..<3 { #expect(await runBot(against: simulator, arguments).code == 0) }
            let writes = try applied(simulator)
            #expect(writes == ["issue label krz/solo 1 --add stale", "issue comment krz/solo 1 --file -"])
        }
    }

    /// A new user's first run on a busy forge: pending builds older than the newest page of
    /// `build list` (a queue left behind) are re-read before they are cancelled, not skipped as
    /// gone, and so not planned again every run, spending `--max-actions` on nothing.
    @Test func oldPendingBuildsAreCancelledNotSkippedAsGone() async throws {
        let forge = Scratch.url("busy-\(UUID()).json")
        try await ForgeGenerator.write(to: forge, repos: 5, issues: 0, mergeRequests: 100, builds: 300, seed: 1)
        try await SimulatorProcess.run(stateFile: forge, options: simulatorOptions) { simulator in
            let result = await runBot(
                against: simulator,
                ["run", rules, "--state-dir", BotState().folder, "--force", "--max-actions", "1000"])
            #expect(result.code == 0, "\(result.output)")
            #expect(!result.output.contains("the item is gone"), "\(result.output)")
            let writes = try applied(simulator)
            #expect(writes.contains { $0.hasPrefix("build cancel") })
        }
    }

    /// A maintainer removes `stale` the bot added: that is their activity, which the feed names.
    ///
    /// The next run does not add it back; 61 quiet days later it does, with a notice of its own,
    /// and the close waits 14 days from that notice and that label, not from the first ones.
    @Test func aMaintainerRemovingStaleIsRespectedAndTheNextEpisodeHasItsOwnNotice() async throws {
        let forge = try journeyForge([JourneyIssue(number: 1)])
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let state = BotState()
            var now = start
            #expect(await run(simulator, state: state, at: now).code == 0)
            #expect(try applied(simulator).count == 2)
            // An hour after the notice (the simulator's clock is frozen between controls).
            try await simulator.control(#"{"advance_seconds": 3600}"#)
            let removal = ["issue", "label", "krz/app", "1", "--remove", "stale"]
            #expect(try await simulator.write(removal, token: maintainerToken) == 200)
            now = start + 3600
            for days in [1.0, 30, 59] {
                try await simulator.control(
                    #"{"advance_seconds": \#(Int(days * day) - Int(now.timeIntervalSince(start)))}"#)
                now = start + days * day
                let again = await run(simulator, state: state, at: now)
                #expect(again.code == 0, "\(again.output)")
                let writes = try applied(simulator)
                #expect(writes.count == 3, "day \(days): \(writes)")
                if days == 1 {
                    // Asked why, the bot says the maintainer's removal an hour after its notice.
                    let why = await runBot(
                        against: simulator, ["explain", "krz/app#1", rules, "--state-dir", state.folder],
                        now: stamp(now))
                    #expect(why.output.contains("(quiet: 23h)"), "\(why.output)\(why.error)")
                }
            }
            try await simulator.control(#"{"advance_seconds": \#(Int(2 * day))}"#)
            now = start + 61 * day
            let marked = await run(simulator, state: state, at: now, ["--verbose"])
            #expect(marked.code == 0)
            #expect(
                try applied(simulator).suffix(2) == [
                    "issue label krz/app 1 --add stale", "issue comment krz/app 1 --file -",
                ],
                "\(marked.output)\(marked.error)")
            // 14 days after the new notice: still waiting; 15 days: closed, after its comment.
            try await simulator.control(#"{"advance_seconds": \#(Int(14 * day) - 60)}"#)
            #expect(await run(simulator, state: state, at: now + 14 * day - 60).code == 0)
            #expect(try applied(simulator).count == 5)
            try await simulator.control(#"{"advance_seconds": \#(Int(day))}"#)
            #expect(await run(simulator, state: state, at: now + 15 * day - 60).code == 0)
            #expect(
                try applied(simulator).suffix(2) == ["issue comment krz/app 1 --file -", "issue close krz/app 1"])
            #expect(try await outcome(simulator).first?.contains("closed") == true)
        }
    }

    /// The stale lifecycle under `--max-actions` 1, 2 and 3 across many runs: an entry's label and
    /// notice always land in the same run (a cap of 1 holds the two-command entries, and says so),
    /// and once every run is done the forge is as one unlimited run leaves it.
    @Test(arguments: [1, 2, 3])
    func theStaleLifecycleUnderAnActionCapNeverSplitsAnEntry(cap: Int) async throws {
        let issues = (1...5).map { JourneyIssue(number: $0) }
        let forge = try journeyForge(issues)
        let reference = try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            #expect(await run(simulator, state: BotState(), at: start).code == 0)
            return try await outcome(simulator)
        }
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let state = BotState()
            for round in 1...6 {
                let before = try applied(simulator)
                let result = await run(simulator, state: state, at: start, ["--max-actions", "\(cap)"])
                let sent = Array(try applied(simulator).dropFirst(before.count))
                #expect(sent.count <= cap, "round \(round): \(sent)")
                let labelled = sent.filter { $0.hasSuffix("--add stale") }.map { $0.split(separator: " ")[3] }
                let noticed = sent.filter { $0.contains(" comment ") }.map { $0.split(separator: " ")[3] }
                #expect(labelled == noticed, "round \(round): \(sent)")
                if cap == 1 {
                    #expect(result.code == 3)
                    #expect(
                        result.output.contains("more than one run may send; raise --max-actions"), "\(result.output)")
                }
            }
            if cap > 1 {
                #expect(try await outcome(simulator) == reference)
            } else {
                #expect(try applied(simulator).isEmpty)
            }
        }
    }

    /// `watch` with the shipped stale rules: it marks the quiet issue, a maintainer removes the
    /// label, and the watcher's next passes (one of them judging the maintainer's event) leave it
    /// off, without a word.
    @Test func aMaintainerRemovingStaleDuringWatchIsNotUndone() async throws {
        let forge = try journeyForge([JourneyIssue(number: 1)])
        try await SimulatorProcess.run(state: forge, options: simulatorOptions) { simulator in
            let bot = try BotProcess(
                [
                    "watch", rules, "--scope", "repo:krz/app", "--state-dir", BotState().folder, "--interval", "1s",
                    "--full-every", "1h", "--url", simulator.baseURL.absoluteString, "--rate-limit", "6000",
                    "--format", "json",
                ], environment: ["GITBAY_TOKEN": simulator.token])
            let marked = try await eventually(within: 60) { try applied(simulator).count == 2 }
            #expect(marked)
            try await simulator.control(#"{"advance_seconds": 3600}"#)
            let removal = ["issue", "label", "krz/app", "1", "--remove", "stale"]
            #expect(try await simulator.write(removal, token: maintainerToken) == 200)
            // Two passes that saw an event: the maintainer's, then the next idle ones after it.
            let output = try await bot.waitForOutput(within: 60) { output in
                output.split(separator: "\n").filter { $0.contains("\"pass\":\"events\"") }.count >= 1
                    && output.split(separator: "\n").filter { $0.contains("\"pass\":\"idle\"") }.count >= 2
            }
            bot.send(SIGTERM)
            let end = try await bot.finish(within: 20)
            #expect(end.status == 143, "\(end.error)")
            let writes = try applied(simulator)
            #expect(writes.count == 3 && writes.last == removal.joined(separator: " "), "\(writes)\n\(output)")
        }
    }

    /// Random guard limits and random stops across a sequence of runs never split, leave half
    /// done or double an entry.
    ///
    /// Epoch by epoch (15 days apart), once the runs of an epoch have nothing left to do, the
    /// forge is as one unlimited run each epoch leaves it; no run splits an entry. At least 200
    /// runs over several seeds.
    @Test func randomGuardsAndStopsEndAsOneUnlimitedRunAndNeverSplitOrDoubleAWrite() async throws {
        let forge = try journeyForge([
            JourneyIssue(number: 1), JourneyIssue(number: 2), JourneyIssue(number: 3), JourneyIssue(number: 4),
            JourneyIssue(number: 5, updated: 20, labels: ["stale"], notice: 20),
            JourneyIssue(number: 6, updated: 5, comments: [("reporter", 5)], labels: ["stale"], notice: 30),
            JourneyIssue(number: 7, updated: 10, comments: [("reporter", 10)]),
            JourneyIssue(number: 8, updated: 30),
        ])
        var steps = 0
        var seed: UInt64 = 1
        while steps < 200 {
            var random = SeededGenerator(seed: seed)
            try await SimulatorProcess.run(state: forge, options: simulatorOptions) { reference in
                try await SimulatorProcess.run(state: forge, options: simulatorOptions) { subject in
                    let (referenceState, subjectState) = (BotState(), BotState())
                    for epoch in 0..<4 {
                        let now = start + Double(epoch) * 15 * day
                        if epoch > 0 {
                            for simulator in [reference, subject] {
                                try await simulator.control(#"{"advance_seconds": \#(Int(15 * day))}"#)
                            }
                        }
                        #expect(await run(reference, state: referenceState, at: now).code == 0)
                        var converged = false
                        var attempts = 0
                        while !converged && attempts < 40 {
                            attempts += 1
                            steps += 1
                            let context = "seed \(seed), epoch \(epoch), step \(attempts)"
                            converged = try await step(subject, state: subjectState, at: now, &random, context)
                        }
                        #expect(converged, "seed \(seed), epoch \(epoch)")
                        let expected = try await outcome(reference)
                        #expect(try await outcome(subject) == expected, "seed \(seed), epoch \(epoch)")
                    }
                }
            }
            seed += 1
        }
    }

    /// One run of the property test with random guards, stopped after a random number of writes
    /// one time in three; answers whether it found nothing left to do.
    private func step(
        _ simulator: SimulatorProcess, state: BotState, at now: Date, _ random: inout SeededGenerator,
        _ context: String
    ) async throws -> Bool {
        let cap = [2, 3, 4, 6, 50].randomElement(using: &random) ?? 50
        let arguments =
            ["run", rules, "--scope", "repo:krz/app", "--state-dir", state.folder, "--max-actions", "\(cap)"]
            + ["--url", simulator.baseURL.absoluteString, "--now", stamp(now), "--rate-limit", "6000"]
        let before = try applied(simulator).count
        let stop = random.chance(1.0 / 3.0)
        let result: (code: Int32, output: String)
        // What the run said on stderr, for the message of a step that fails (it once ended 75 unsaid).
        var said = ""
        if stop {
            let after = Int.random(in: 0...2, using: &random)
            try await simulator.control(#"{"faults": ["hold,method=POST,after=\#(after),times=1"]}"#)
            let (control, console) = (CommandControl(), RecordingConsole())
            let task = Task {
                await BotCLI.run(
                    arguments, environment: testEnvironment(["GITBAY_TOKEN": simulator.token]), console: console,
                    control: control)
            }
            // The run reaches the held write, or ends first with fewer writes to send.
            _ = try await eventually(within: 30) {
                (try await simulator.stats()["held"] as? Int ?? 0) > 0 || console.output.contains("applied")
                    || console.output.contains("nothing to do")
            }
            control.recordStop(by: SIGTERM)
            task.cancel()
            try await simulator.control(#"{"faults": [], "release": 1}"#)
            result = (await task.value, console.output)
            said = console.error
        } else {
            let ran = await runBot(arguments, environment: ["GITBAY_TOKEN": simulator.token])
            result = (ran.code, ran.output)
            said = ran.error
        }
        let sent = Array(try applied(simulator).dropFirst(before))
        #expect(sent.count <= cap, "\(context): \(sent)")
        if !stop {
            // An entry's label and notice land together: never one without the other in a run.
            let labelled = sent.filter { $0.hasSuffix("--add stale") }.map { $0.split(separator: " ")[3] }
            let noticed = sent.filter { $0.contains(" comment ") && !$0.contains("close") }
            #expect(Set(labelled).isSubset(of: Set(noticed.map { $0.split(separator: " ")[3] })), "\(context): \(sent)")
            #expect([0, 3].contains(result.code), "\(context): \(result.output)\(said)")
        }
        return !stop && result.code == 0 && result.output.hasSuffix("nothing to do\n")
    }
}

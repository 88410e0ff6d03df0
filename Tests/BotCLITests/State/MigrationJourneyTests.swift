import Foundation
import GitbayTestSupport
import Testing

private let rules = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
private let maintainerToken = "gb_" + String(repeating: "m", count: 64)
private let start = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z
private let day = JourneyForge.day
private let simulatorOptions = [
    "--clock", "frozen", "--api-rate", "100000", "--write-rate", "100000", "--user-token",
    "maintainer=\(maintainerToken)",
]

/// The stale rules the shipped ones were before they restarted the lifecycle.
private let olderRules = olderCloseStaleRules

/// Issues labelled `stale` with the notice of older rules (the bot's, without a marker), 20 days
/// old, and no label event the feed keeps: #1 nobody speaks on, #2 a maintainer answers.
private func migratedForge() throws -> String {
    let issues = [1, 2].map { number in
        JourneyForge.Issue(
            number: number, updated: 20, comments: [("reporter", 100), ("triage-bot", 20)], labels: ["stale"])
    }
    return try JourneyForge.state(issues, start: start)
}

/// A user moves to the shipped rules from older ones (or another bot) on a forge whose issues
/// already carry `stale` with a notice the rules cannot identify, nor the label's date.
@Suite(.serialized) struct MigrationJourneyTests {
    private func bot(
        _ simulator: SimulatorProcess, _ arguments: [String], at now: Date
    ) async -> (
        code: Int32, output: String, error: String
    ) {
        await runBot(against: simulator, arguments, now: JourneyForge.stamp(now))
    }

    private func applied(_ simulator: SimulatorProcess) throws -> [String] {
        try simulator.journalEntries().filter { $0["applied"] as? Bool == true }.map {
            (($0["argv"] as? [String]) ?? []).joined(separator: " ")
        }
    }

    /// The next run gives each a marked notice, and fourteen days later closes the one nobody spoke on.
    ///
    /// The plan before the notices counts the close waiting for them and `explain` says so. Fourteen days later the one nobody spoke on is closed; the
    /// other is alive again the run after its answer.
    @Test func aStaleIssueWithAnUnmarkedNoticeIsNoticedAgainThenClosed() async throws {
        try await SimulatorProcess.run(state: try migratedForge(), options: simulatorOptions) { simulator in
            let state = BotState().folder
            let run = ["run", rules, "--scope", "repo:krz/app", "--state-dir", state]
            let plan = await bot(
                simulator, ["plan", rules, "--scope", "repo:krz/app", "--state-dir", state], at: start)
            #expect(
                plan.output.contains(
                    "  2 items wait for a value not there yet: comment_age.mark-stale; "
                        + "gitbay-bot explain krz/app#1 says why\n"), "\(plan.output)")
            #expect(plan.output.contains("; 2 entries wait for a value not there yet (gitbay-bot explain krz/app#1)\n"))
            let why = await bot(
                simulator, ["explain", "krz/app#1", rules, "--scope", "repo:krz/app", "--state-dir", state], at: start)
            #expect(why.output.contains("waits: the issue has no value of comment_age.mark-stale yet"), "\(why.output)")
            // Nobody can date the label: shown so, and the notice alone will count.
            #expect(why.output.contains("(label_age.stale: (unknown))"), "\(why.output)")

            #expect(await bot(simulator, run, at: start).code == 0)
            #expect(try applied(simulator) == ["issue comment krz/app 1 --file -", "issue comment krz/app 2 --file -"])
            let notices = try await simulator.forge()
            #expect("\(notices)".contains("gitbay-bot:rule=mark-stale item=krz/app#1"))

            // Three days on, a maintainer answers #2.
            try await simulator.control(#"{"advance_seconds": \#(Int(3 * day))}"#)
            let answer = ["issue", "comment", "krz/app", "2", "--message", "still wanted"]
            #expect(try await simulator.write(answer, token: maintainerToken) == 200)
            // A week after the notices: #2's label goes; #1 waits for its 14 days, with a value.
            try await simulator.control(#"{"advance_seconds": \#(Int(4 * day))}"#)
            let week = await bot(simulator, run, at: start + 7 * day)
            #expect(week.code == 0, "\(week.output)")
            #expect(!week.output.contains("wait for a value"), "\(week.output)")
            #expect(
                try applied(simulator).suffix(2) == [
                    "issue comment krz/app 2 --message still wanted", "issue label krz/app 2 --remove stale",
                ])
            let waiting = await bot(
                simulator, ["explain", "krz/app#1", rules, "--scope", "repo:krz/app", "--state-dir", state],
                at: start + 7 * day)
            #expect(waiting.output.contains("nearest miss: comment_age.mark-stale > 14d"), "\(waiting.output)")

            // Fourteen days after the notice and a minute: closed, after its comment; #2 stays open.
            try await simulator.control(#"{"advance_seconds": \#(Int(7 * day) + 60)}"#)
            #expect(await bot(simulator, run, at: start + 14 * day + 60).code == 0)
            #expect(try applied(simulator).suffix(2) == ["issue comment krz/app 1 --file -", "issue close krz/app 1"])
            #expect(try applied(simulator).filter { $0.contains("krz/app 2") && $0.contains("close") }.isEmpty)
        }
    }

    /// With the older rules nothing would ever happen to them: every run says so, in the plan,
    /// its report and `explain`, and writes nothing.
    @Test func olderRulesWaitForeverAndEveryRunSaysSo() async throws {
        let file = Scratch.url("older-\(UUID().uuidString).yml")
        try olderRules.write(to: file, atomically: true, encoding: .utf8)
        try await SimulatorProcess.run(state: try migratedForge(), options: simulatorOptions) { simulator in
            let state = BotState().folder
            for days in [0.0, 30] {
                try await simulator.control(#"{"advance_seconds": \#(Int(days * day))}"#)
                let report = Scratch.url("report-\(UUID().uuidString).md")
                let result = await bot(
                    simulator, ["run", file.path, "--state-dir", state, "--report", report.path],
                    at: start + days * day)
                #expect(result.code == 0)
                #expect(
                    result.output.contains(
                        "2 items wait for a value not there yet: label_age.stale; gitbay-bot explain krz/app#1"),
                    "\(result.output)")
                let text = try String(contentsOf: report, encoding: .utf8)
                #expect(text.contains("### Waiting for a value\n\n- **close-stale**: 2 items wait"), "\(text)")
            }
            #expect(try applied(simulator).isEmpty)
        }
    }
}

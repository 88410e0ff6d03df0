import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let example = root.appendingPathComponent("examples/schedule").path

/// Office-hours rules whose conditions need each issue's detail (`quiet` reads its comments), in a
/// fresh folder: outside the window only the listing judges them, cache or no cache.
private func officeRules() throws -> String {
    let folder = Scratch.url("office-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("office.yml").path
    let schedule =
        "    schedule: {days: [mon, tue, wed, thu, fri], hours: [\"09:00-17:00\"], timezone: Europe/Berlin}\n"
    try Data(
        """
        scope: owner:krz
        rules:
          - name: mark
            on: issues
        \(schedule)    when: [state = open, quiet > 30d, "labels lacks [stale, pinned, security]"]
            do: [{add-label: stale}, {comment: "Nobody has commented here for {{ quiet }}."}]
          - name: unmark
            on: issues
        \(schedule)    when: [state = open, labels has stale, quiet < 30d]
            do: [{remove-label: stale}]

        """.utf8
    ).write(to: URL(fileURLWithPath: path))
    return path
}

/// `run` against the simulator with the shipped schedule example, at `--now` outside and inside.
@Suite(.serialized) struct ScheduleAgainstSimulatorTests {
    @Test func runWritesNothingOutsideTheWindowAndActsInsideIt() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            // Sunday 2026-11-29 12:00 UTC: outside both rules' windows.
            let report = Scratch.url("report-\(UUID().uuidString).md").path
            let sunday = await runBot(
                against: simulator, ["run", example, "--state-dir", state.folder, "--report", report])
            #expect(
                sunday.output.contains(
                    "held back: outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin"))
            #expect(sunday.output.contains("0 commands pending (0 rules, 0 entries), 5 held back"))
            // Waiting for its window is no shortfall: a scheduled job outside it stays green.
            #expect(sunday.code == 0, "\(sunday.error)")
            #expect(sunday.output.contains("5 waiting"), "\(sunday.output)")
            // The report names them as the run does: waiting, not held back by a guard.
            let markdown = try String(contentsOfFile: report, encoding: .utf8)
            #expect(markdown.contains("| nudge-stale | issues | 10 | 2 | 0 | 0 | 0 | 0 | 2 | 0 |\n"), "\(markdown)")
            #expect(
                markdown.contains(
                    "- **waiting**: nudge-stale add-label on krz/gitbay#31: outside its schedule; next window Mon 2026-11-30 09:00 "
                        + "Europe/Berlin\n"), "\(markdown)")
            #expect(!markdown.contains("**held**"), "\(markdown)")
            #expect((try await simulator.stats()["writes"] as? NSNumber)?.intValue == 0)

            // Monday 09:00 in Berlin: the office rule acts, the night rule still waits.
            let monday = await runBot(
                against: simulator, ["run", example, "--state-dir", state.folder], now: "2026-11-30T08:00:00.000Z")
            #expect(monday.output.contains("+ issue label krz/gitbay 31 --add stale"))
            let writes = try simulator.journalEntries().filter { $0["applied"] as? Bool == true }
                .map { (($0["argv"] as? [String]) ?? []).joined(separator: " ") }
            #expect(
                writes.sorted() == ["issue label krz/gitbay 31 --add stale", "issue label krz/gitbay 40 --add stale"])
        }
    }

    /// Outside its window a rule is judged on what the listing shows, so a plan on a cold cache
    /// (a first run, `--no-cache`, a CI job without its state folder) is the one on a warm cache;
    /// and every rule says it is outside its window and when it opens, even with nothing matched.
    @Test func aPlanOutsideTheWindowIsTheSameOnAColdAndAWarmCache() async throws {
        let rules = try officeRules()
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let warmed = BotState()
            // Monday 09:00 in Berlin: inside the window, the plan reads and keeps the details.
            let monday = await runBot(
                against: simulator, ["plan", rules, "--state-dir", warmed.folder], now: "2026-11-30T08:00:00.000Z")
            #expect(monday.output.contains("mark (issues): 3 matched of 10, 3 acting"), "\(monday.output)")
            let sunday = ["plan", rules, "--format", "json"]
            let cold = await runBot(against: simulator, sunday + ["--state-dir", BotState().folder])
            let uncached = await runBot(against: simulator, sunday + ["--state-dir", warmed.folder, "--no-cache"])
            let warm = await runBot(against: simulator, sunday + ["--state-dir", warmed.folder, "--verbose"])
            // Five of the issues Monday read; the others' rows decided `quiet` without a read.
            #expect(warm.error.contains("issue details: 5 served from the read cache"), "\(warm.error)")
            #expect(cold.code == 0 && warm.code == 0, "\(cold.error) \(warm.error)")
            #expect(warm.output == cold.output)
            #expect(uncached.output == cold.output)
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(cold.output.utf8)) as? [String: Any])
            let summaries = try #require(plan["rules"] as? [[String: Any]])
            #expect(
                summaries.map { $0["outsideSchedule"] as? String }
                    == Array(
                        repeating: "outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin", count: 2))
            let text = await runBot(against: simulator, ["plan", rules, "--state-dir", warmed.folder])
            // The issues whose rows bound `quiet` past 30 days match, held for the window: the three
            // Monday acts on.
            #expect(
                text.output.contains(
                    "mark (issues): 3 matched of 10, 0 acting, 3 held\n"
                        + "  outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin\n"), "\(text.output)")
            #expect(text.output.hasSuffix("0 commands pending (0 rules, 0 entries), 6 held back\n"), "\(text.output)")
        }
    }
}

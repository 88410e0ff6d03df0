import Foundation
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let example = root.appendingPathComponent("examples/schedule").path

/// `run` against the simulator with the shipped schedule example, at `--now` outside and inside.
@Suite(.serialized) struct ScheduleAgainstSimulatorTests {
    @Test func runWritesNothingOutsideTheWindowAndActsInsideIt() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: ["--clock", "frozen"]) { simulator in
            let state = BotState()
            // Sunday 2026-11-29 12:00 UTC: outside both rules' windows.
            let report = Scratch.url("report-\(UUID().uuidString).md").path
            let sunday = await runBot(
                against: simulator, ["run", example, "--state-dir", state.folder, "--report", report])
            #expect(sunday.output.contains("held back: outside its schedule; next window Mon 09:00 Europe/Berlin"))
            #expect(sunday.output.contains("0 commands pending (0 rules, 0 entries), 5 held back"))
            // Waiting for its window is no shortfall: a scheduled job outside it stays green.
            #expect(sunday.code == 0, "\(sunday.error)")
            #expect(sunday.output.contains("5 waiting"), "\(sunday.output)")
            // The report names them as the run does: waiting, not held back by a guard.
            let markdown = try String(contentsOfFile: report, encoding: .utf8)
            #expect(markdown.contains("| nudge-stale | issues | 10 | 2 | 0 | 0 | 0 | 0 | 2 | 0 |\n"), "\(markdown)")
            #expect(
                markdown.contains(
                    "- **waiting**: nudge-stale add-label on krz/gitbay#31: outside its schedule; next window Mon 09:00 "
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
}

import Foundation
import GitbayKit
import GitbayTestSupport
import Testing

private let root = SimulatorProcess.repositoryRoot

/// What a full read would have the bot do at one moment: each entry's item and action.
private struct Obligation: Hashable, CustomStringConvertible {
    var reference: String
    var action: String
    var description: String { "\(action) on \(reference)" }
}

/// The pending and held entries of a plan printed with `--format json`.
private func entries(_ json: String) throws -> (pending: Set<Obligation>, held: Set<Obligation>) {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    var pending = Set<Obligation>()
    var held = Set<Obligation>()
    for entry in object["entries"] as? [[String: Any]] ?? [] {
        let reference = (entry["item"] as? [String: Any])?["reference"] as? String ?? "?"
        for action in entry["actions"] as? [[String: Any]] ?? [] {
            let obligation = Obligation(reference: reference, action: action["action"] as? String ?? "?")
            switch action["status"] as? String {
            case "pending": pending.insert(obligation)
            case "held": held.insert(obligation)
            default: break
            }
        }
    }
    return (pending, held)
}

/// Over 60 scheduled runs (three sweep periods; 200, ten periods, in a deep run), with other
/// people acting on the forge between them, every entry a full read would act on is acted on (it
/// leaves the full read's plan), or a guard holds it, within a period and a step: the sweep
/// delays, it never loses. (With the sweep's share and its period-old reads taken out, entries
/// wait 22 steps and more, and this fails at either length; change detection alone is
/// `SweepJourneyTests`' and `RepositorySweepTests`'.)
@Suite struct SweepPropertyTests {
    @Test func overOnePeriodOfRunsEveryEntryAFullReadWouldActOnIsActedOnOrHeld() async throws {
        let steps = TestDepth.isDeep ? 200 : 60
        let step = 60
        // Periods of 20 steps: an entry a run lost would outlast one.
        let periodSteps = 20
        let period = "\(periodSteps)m"
        let forge = Scratch.url("sweep-forge-\(UUID().uuidString).json")
        try await ForgeGenerator.write(to: forge, repos: 4, issues: 12, mergeRequests: 4, builds: 8, seed: 5)
        var activity = try ForgeActivity(stateFile: forge, seed: 11)
        let bot = BotState()
        let audit = BotState()
        let rules = root.appendingPathComponent("rules").path
        try await SimulatorProcess.run(
            stateFile: forge,
            options: ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"]
                + ForgeActivity.simulatorOptions
        ) { simulator in
            var now = try #require(GitbayTimestamp.parse("2026-11-29T12:00:00.000Z"))
            // When each entry the full reads keep showing was first shown, and its step.
            var waiting: [Obligation: Int] = [:]
            var longest = 0
            var met = 0
            for index in 0..<steps {
                _ = try await activity.act(2, on: simulator)
                try await simulator.control("{\"advance_seconds\": \(step)}")
                now += TimeInterval(step)
                let stamp = GitbayTimestamp.format(now, precision: .milliseconds)
                let full = await runBot(
                    against: simulator,
                    [
                        "plan", rules, "--scope", "repo:*", "--read-all", "--no-cache", "--format", "json",
                        "--state-dir", audit.folder,
                    ], now: stamp)
                #expect(full.code == 0 || full.code == 2, "\(full.error)")
                let (pending, held) = try entries(full.output)
                for obligation in waiting.keys where !pending.contains(obligation) || held.contains(obligation) {
                    if !pending.contains(obligation) { met += 1 }
                    waiting[obligation] = nil
                }
                for obligation in pending where !held.contains(obligation) && waiting[obligation] == nil {
                    waiting[obligation] = index
                }
                for (obligation, since) in waiting {
                    longest = max(longest, index - since)
                    // A change nothing announces waits a period at most; one more step is the run
                    // that finds its copy a period old.
                    #expect(index - since <= periodSteps + 1, "\(obligation) waited since step \(since)")
                }
                // The generated forge holds issues labelled stale without the rules' notice, which
                // the first run notices again, more than the tripwire lets pass unasked: the
                // migration docs/rules.md describes, where the user reads the plan and forces it once.
                let run = await runBot(
                    against: simulator,
                    ["run", rules, "--scope", "repo:*", "--state-dir", bot.folder, "--sweep-period", period]
                        + (index == 0 ? ["--force"] : []),
                    now: stamp)
                #expect([0, 2].contains(run.code), "step \(index): \(run.error)")
            }
            // Entries did come and go: the runs met them, rather than nothing ever being asked.
            #expect(met > steps / 2, "\(met) entries met in \(steps) runs")
            #expect(longest <= periodSteps + 1)
        }
    }
}

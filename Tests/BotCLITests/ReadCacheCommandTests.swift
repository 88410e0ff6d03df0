import Foundation
import GitbayTestSupport
import Testing

@testable import BotCLI

private let root = SimulatorProcess.repositoryRoot
private let demo = root.appendingPathComponent("examples/demo-forge.json")
private let rules = root.appendingPathComponent("rules").path
private let fastSimulator = ["--clock", "frozen", "--api-rate", "6000", "--write-rate", "6000"]

/// The read requests the simulator has served so far.
private func reads(_ simulator: SimulatorProcess) async throws -> Int {
    (try await simulator.stats()["reads"] as? NSNumber)?.intValue ?? -1
}

/// The read cache as the command line uses it: `run` keeps it, a preview (`plan`, `run --dry-run`)
/// makes it when there is none and uses it, `--verbose` says what it served, `--no-cache` reads
/// afresh.
@Suite struct ReadCacheCommandTests {
    /// A preview on a fresh state folder makes the read cache, and the next one is served from it.
    ///
    /// A dry run may not write to the forge, but the cache is the bot's own. Neither preview
    /// records a run or an action.
    @Test(arguments: [["plan"], ["run", "--dry-run"]])
    func aPreviewOnAFreshStateFolderMakesTheCacheAndTheNextOneUsesIt(command: [String]) async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let arguments = command + [rules, "--state-dir", state.folder, "--verbose"]
            var before = try await reads(simulator)
            let first = await runBot(against: simulator, arguments)
            let firstReads = try await reads(simulator) - before
            #expect(first.code == 0 || first.code == 3, "\(first.error)")
            before = try await reads(simulator)
            let second = await runBot(against: simulator, arguments)
            let secondReads = try await reads(simulator) - before
            let served = second.error.split(separator: "\n").filter { $0.contains("served from the read cache") }
            #expect(served.contains { !$0.contains(" 0 served") }, "\(second.error)")
            #expect(secondReads < firstReads, "second \(secondReads), first \(firstReads)")
            // The same commands for the same items; only an observed value may show less (labels
            // are learnt from the listing's queries, not from the cached detail).
            func commands(_ output: String) -> [Substring] {
                output.split(separator: "\n").filter { $0.hasPrefix("    + ") || $0.hasPrefix("  krz/") }
            }
            #expect(commands(second.output) == commands(first.output))
            #expect(!commands(first.output).isEmpty)
            #expect(try await state.history(server: simulator.baseURL).isEmpty)
            #expect(try simulator.journalEntries().isEmpty)
        }
    }

    /// A preview that cannot make its cache (a state folder that cannot exist) says so once and
    /// plans without it: the cache saves requests, it is never why a preview fails.
    @Test func aPreviewWhoseCacheCannotBeMadePlansWithoutIt() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let plan = await runBot(against: simulator, ["plan", rules, "--state-dir", "/proc/gitbay-bot"])
            #expect(plan.code == 0, "\(plan.error)")
            #expect(
                plan.error.hasPrefix(
                    "note: the read cache is not used: cannot use the state database /proc/gitbay-bot/"))
            #expect(plan.output.hasSuffix("11 commands pending (6 rules, 8 entries)\n"), "\(plan.output)")
        }
    }

    @Test func detailsKeptByARunServeTheNextPlan() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let applied = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder])
            #expect(applied.code == 0, "\(applied.error)")
            var before = try await reads(simulator)
            let cold = await runBot(
                against: simulator, ["plan", rules, "--state-dir", state.folder, "--no-cache", "--verbose"])
            let coldReads = try await reads(simulator) - before
            #expect(cold.code == 0, "\(cold.error)")
            #expect(!cold.error.contains("served from the read cache"), "\(cold.error)")
            before = try await reads(simulator)
            let warm = await runBot(against: simulator, ["plan", rules, "--state-dir", state.folder, "--verbose"])
            let warmReads = try await reads(simulator) - before
            #expect(warm.code == 0, "\(warm.error)")
            let served = warm.error.split(separator: "\n").filter { $0.contains("served from the read cache") }
            #expect(served.contains { !$0.contains(" 0 served") }, "\(warm.error)")
            #expect(warmReads < coldReads, "warm \(warmReads), cold \(coldReads)")
            // The plans agree: the cache changes what is read, never what is planned.
            #expect(warm.output == cold.output)
        }
    }
}

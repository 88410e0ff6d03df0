import Foundation
import GitbayTestSupport
import RuleEngine
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
            // The same plan, reasons included: the cache changes what is read, never what is recorded.
            #expect(second.output == first.output)
            #expect(first.output.contains("    + "))
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

    /// Two saved plans in a row on one state folder record the same entries with the same reasons,
    /// value for value, for issues and merge requests: the second's details come from the read
    /// cache, its labels from the listing's `label:` queries alone, and a plan (with `history` and
    /// the status page after it) must not show an issue labelled `bug` as carrying none.
    @Test func aSavedPlanRecordsTheSameReasonsOnAColdAndAWarmCache() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let folder = Scratch.url("plans-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var saved: [Data] = []
            for name in ["cold.json", "warm.json"] {
                let path = folder.appendingPathComponent(name)
                let plan = await runBot(
                    against: simulator, ["plan", rules, "--state-dir", state.folder, "--verbose", "-o", path.path])
                #expect(plan.code == 0, "\(plan.error)")
                saved.append(try Data(contentsOf: path))
            }
            let warm = await runBot(against: simulator, ["plan", rules, "--state-dir", state.folder, "--verbose"])
            // Five: the other two issues' rows decide `quiet` without a read.
            #expect(warm.error.contains("issue details: 5 served from the read cache"), "\(warm.error)")
            #expect(warm.error.contains("merge request details: 3 served from the read cache"), "\(warm.error)")
            let plans = try saved.map { try PlanJSON.decodePlan(from: $0) }
            #expect(plans[1].entries.count == plans[0].entries.count)
            for (warm, cold) in zip(plans[1].entries, plans[0].entries) {
                #expect(warm.item == cold.item)
                #expect(warm.reasons == cold.reasons, "\(warm.item.reference)")
                #expect(warm.actions == cold.actions, "\(warm.item.reference)")
            }
            #expect(saved[1] == saved[0])
            // The issue labelled bug shows which of the labels the rule names it carries, as offline.
            let marked = try #require(plans[0].entries.first { $0.rule == "mark-stale" && $0.item.number == 31 })
            #expect(marked.reasons.map(\.observed).contains("[] of [pinned, security]"))
            #expect(plans[0].entries.contains { $0.item.kind.rawValue == "merge_requests" })
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

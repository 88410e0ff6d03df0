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

/// The read cache as the command line uses it: `run` keeps it, `plan` uses a run's database and
/// never makes one, `--verbose` says what it served, `--no-cache` reads afresh.
@Suite struct ReadCacheCommandTests {
    @Test func aDryRunMakesNoDatabase() async throws {
        try await SimulatorProcess.run(stateFile: demo, options: fastSimulator) { simulator in
            let state = BotState()
            let run = await runBot(against: simulator, ["run", rules, "--state-dir", state.folder, "--dry-run"])
            #expect(run.code == 0 || run.code == 3, "\(run.error)")
            // A dry run plans only: it makes no database, so nothing is kept yet.
            #expect(!FileManager.default.fileExists(atPath: state.folder))
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

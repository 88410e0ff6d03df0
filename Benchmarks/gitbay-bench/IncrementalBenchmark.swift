import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import StateDatabase

/// `gitbay-bench incremental`: the shipped rules run as cron would run them, the read cache in a
/// state database kept between runs, against the simulator on generated forges.
///
/// One cold run, then rounds in which other people change 1% of the items (``ForgeActivity``) and
/// an hour passes; the bot applies each plan, so its own writes are part of what changes. The
/// first rounds catch up: a cold run reading guards first leaves unread what its guards held
/// back, and the next runs read it as the bot works through that backlog; they are reported
/// apart. Each later warm run's requests are measured against the floor: the listing pages the rules need
/// (``ReadLowerBound`` without its details, plus the merge requests' activity query that versions
/// their cached details) and one detail read per item changed since the run before (by people or
/// by the bot). Requests are counted, never timed.
enum IncrementalBenchmark {
    static let summary = "warm runs with the read cache after 1% of items change: requests vs listing + changed"
    /// A warm run may send 10% more than the floor.
    static let warmTarget = 1.1
    /// A cold run reading guards first sends at most half of a full read.
    static let coldTarget = 0.5
    /// gitbay's budget for 3 minutes (120 requests a minute): the steady state of the 20-repository forge.
    static let steadyBudget = 360
    /// The rounds after the cold run that catch up on what it left unread.
    static let catchUpRounds = 2

    static func run(_ arguments: [String]) async throws {
        var sizes = [5, 20]
        var rounds = 8
        var verbose = false
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--repos": sizes = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rounds": rounds = Int(words.popFirst() ?? "") ?? rounds
            case "--verbose": verbose = true
            default:
                print("usage: gitbay-bench incremental [--repos 5,20] [--rounds 8] [--verbose]")
                return
            }
        }
        var rows: [BenchRow] = []
        for size in sizes {
            rows += try await measure(repos: size, rounds: rounds, verbose: verbose)
        }
        BenchRow.report(rows)
    }

    private static func measure(repos: Int, rounds: Int, verbose: Bool) async throws -> [BenchRow] {
        let file = try await GeneratedForge.file(repos: repos)
        let registry = ShippedRules.registry
        let rules = try ShippedRules.load(scope: try RuleScope(parsing: "repo:*"))
        let offline = try ForgeStateFile.load(from: Data(contentsOf: file), registry: registry).forgeState()
        let listing = listingFloor(rules: rules, state: offline, registry: registry)
        let items = offline.repositories.reduce(0) { $0 + $1.issues.count + $1.mergeRequests.count + $1.builds.count }
        let options =
            ["--clock", "frozen", "--time-scale", "1000", "--api-rate", "1000000", "--write-rate", "1000000"]
            + ForgeActivity.simulatorOptions
        let database = FileManager.default.temporaryDirectory
            .appendingPathComponent("gitbay-bench-incremental-\(UUID().uuidString).sqlite3").path
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] {
                try? FileManager.default.removeItem(atPath: database + suffix)
            }
        }
        let store = try SQLiteStateStore(path: database, mode: .applying)
        var activity = try ForgeActivity(stateFile: file, seed: UInt64(repos))
        let planner = ReadPlanner(registry: registry)
        let evaluator = Evaluator(registry: registry)
        let size = "\(repos) repos, \(items) items"
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            var now = offline.now
            let full = try simulator.client()
            _ = try await planner.read(rules, from: full, at: now, policy: ReadPolicy(.audit))
            let cold = try simulator.client()
            let (coldState, _) = try await planner.read(
                rules, from: cold, at: now, policy: ReadPolicy(.guarded(EvaluationOptions()), cache: .trusts(store)))
            var written = try await apply(
                evaluator.plan(rules: rules, state: coldState, source: "bench"), simulator, store)
            if verbose { print("\(size): full read \(full.metrics.reads), cold guards first \(cold.metrics.reads)") }
            var worst = 0.0
            var steady: [Int] = []
            var catchUp: [Int] = []
            for round in 1...max(rounds, catchUpRounds + 1) {
                let changed = try await activity.act(max(1, items / 100), on: simulator).union(written)
                try await simulator.control("{\"advance_seconds\": 3600}")
                now += 3_600
                let warm = try simulator.client()
                let (state, report) = try await planner.read(
                    rules, from: warm, at: now, policy: ReadPolicy(.guarded(EvaluationOptions()), cache: .trusts(store))
                )
                let floor = listing + changed.count
                if round <= catchUpRounds {
                    catchUp.append(warm.metrics.reads)
                } else {
                    worst = max(worst, Double(warm.metrics.reads) / Double(floor))
                    steady.append(warm.metrics.reads)
                }
                if verbose {
                    print(
                        "  round \(round): \(warm.metrics.reads) requests (\(report.detailRequests) details), "
                            + "floor \(listing) listing + \(changed.count) changed = \(floor)")
                    for step in report.steps { print("    \(step)") }
                }
                written = try await apply(evaluator.plan(rules: rules, state: state, source: "bench"), simulator, store)
            }
            let worstSteady = steady.max() ?? 0
            var rows = [
                BenchRow(
                    name: "incremental", size: size, measure: "cold, guards first / full read",
                    value: "\(cold.metrics.reads) / \(full.metrics.reads) = "
                        + String(format: "%.3f", Double(cold.metrics.reads) / Double(full.metrics.reads)),
                    target: "≤ \(coldTarget)",
                    verdict: Double(cold.metrics.reads) <= coldTarget * Double(full.metrics.reads) ? "PASS" : "FAIL"),
                BenchRow(
                    name: "incremental", size: size, measure: "catch-up rounds after the cold run",
                    value: catchUp.map(String.init).joined(separator: ", ") + " requests", target: "(reported)",
                    verdict: "—"),
                BenchRow(
                    name: "incremental", size: size,
                    measure: "warm / (listing + changed), worst of \(steady.count)",
                    value: String(format: "%.3f", worst) + " (listing \(listing))", target: "≤ \(warmTarget)",
                    verdict: worst <= warmTarget ? "PASS" : "FAIL"),
                BenchRow(
                    name: "incremental", size: size, measure: "full read / warm, worst round",
                    value: "\(full.metrics.reads) / \(worstSteady) = "
                        + String(format: "%.1f", Double(full.metrics.reads) / Double(max(1, worstSteady))),
                    target: "≥ 10", verdict: full.metrics.reads >= 10 * worstSteady ? "PASS" : "FAIL"),
            ]
            if repos >= 20 {
                rows.append(
                    BenchRow(
                        name: "incremental", size: size, measure: "steady-state requests, worst round",
                        value: "\(worstSteady)", target: "≤ \(steadyBudget) (3 min at 120/min)",
                        verdict: worstSteady <= steadyBudget ? "PASS" : "FAIL"))
            }
            return rows
        }
    }

    /// What the listing costs at best: ``ReadLowerBound`` without its detail reads, plus the merge
    /// requests' activity query when the bound leaves it out (a run keeping a cache reads it for
    /// the versions).
    static func listingFloor(rules: [Rule], state: ForgeState, registry: PluginRegistry) -> Int {
        let bound = ReadLowerBound(rules: rules, state: state, registry: registry)
        var floor = bound.parts.filter { !$0.what.contains("detail") }.reduce(0) { $0 + $1.requests }
        if rules.contains(where: { $0.kind == .mergeRequests }),
            !bound.parts.contains(where: { $0.what.hasPrefix("merge request activity") })
        {
            let open = state.repositories.filter { !$0.archived }.reduce(0) { count, repository in
                count + repository.mergeRequests.filter { $0.mergeRequest.state == .open }.count
            }
            floor += ReadLowerBound.pages(open)
        }
        return floor
    }

    /// Applies `plan` as the bot, journaled in `store` (which drops the written items' cached
    /// details); answers the items written.
    private static func apply(
        _ plan: Plan, _ simulator: SimulatorProcess, _ store: SQLiteStateStore
    ) async throws
        -> Set<String>
    {
        let bot = try simulator.client(access: .readWrite)
        let report = await Applier(registry: ShippedRules.registry).apply(
            plan, reader: bot, writer: bot, journal: store)
        return Set(report.outcomes.filter { $0.status == .applied }.map(\.item))
    }
}

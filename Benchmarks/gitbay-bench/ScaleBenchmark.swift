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

/// `gitbay-bench scale`: the shipped rules run as a cron every 15 minutes would run them, with the
/// feed, the read cache and the rolling sweep in one state database, at 5, 100 and 1,000
/// repositories; between runs other people change 1% of the items.
///
/// It reports each run's requests by command, against gitbay's budget of 7,200 reads an hour (a
/// run every 15 minutes may spend a quarter of it, 1,800) and against the floor: the listings no
/// design can skip (the repositories, the feed, the cross-repository issue and merge request
/// queries), one read per item changed since the run before, and the sweep's share of the
/// per-repository reads. Requests are counted, never timed.
enum ScaleBenchmark {
    static let summary = "cron every 15 min at 5/100/1000 repos, 1% churn: requests by command vs budget and floor"
    /// gitbay's reads per account and hour.
    static let hourlyBudget = 7_200
    /// Minutes between runs.
    static let interval: TimeInterval = 900

    /// One forge size the benchmark runs.
    struct Size: Sendable {
        var repos: Int
        var issues: Int
        var mergeRequests: Int
        var builds: Int
        /// The most a warm run may read (the issue's bound for this size), if one is set.
        var target: Int?
    }

    static let sizes = [
        Size(repos: 5, issues: 500, mergeRequests: 100, builds: 300, target: 110),
        Size(repos: 100, issues: 20, mergeRequests: 5, builds: 10, target: nil),
        Size(repos: 1000, issues: 20, mergeRequests: 5, builds: 10, target: 900),
    ]

    static func run(_ arguments: [String]) async throws {
        var repos = sizes.map(\.repos)
        var rounds = 6
        var verbose = false
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--repos": repos = (words.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rounds": rounds = Int(words.popFirst() ?? "") ?? rounds
            case "--verbose": verbose = true
            default:
                print("usage: gitbay-bench scale [--repos 5,100,1000] [--rounds 6] [--verbose]")
                return
            }
        }
        var rows: [BenchRow] = []
        for size in sizes where repos.contains(size.repos) {
            rows += try await measure(size, rounds: max(3, rounds), verbose: verbose)
        }
        BenchRow.report(rows)
    }

    /// One run's requests, by command.
    private struct RunReads {
        var byCommand: [String: Int]
        var total: Int { byCommand.values.reduce(0, +) }

        /// `issue list --q 60, build list 40, ...`, the largest first.
        var line: String {
            byCommand.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
        }
    }

    private static func measure(_ size: Size, rounds: Int, verbose: Bool) async throws -> [BenchRow] {
        // A tenth of the repositories carry their own rules file, as an organisation's might.
        let file = try await GeneratedForge.file(
            repos: size.repos, issues: size.issues, mergeRequests: size.mergeRequests, builds: size.builds,
            rulesFiles: max(1, size.repos / 10))
        let registry = ShippedRules.registry
        let rules = try ShippedRules.load(scope: try RuleScope(parsing: "repo:*"))
        let offline = try ForgeStateFile.load(from: Data(contentsOf: file), registry: registry).forgeState()
        let items = offline.repositories.reduce(0) { $0 + $1.issues.count + $1.mergeRequests.count + $1.builds.count }
        let options =
            ["--clock", "frozen", "--api-rate", "1000000", "--write-rate", "1000000"] + ForgeActivity.simulatorOptions
        let database = FileManager.default.temporaryDirectory
            .appendingPathComponent("gitbay-bench-scale-\(UUID().uuidString).sqlite3").path
        defer {
            for suffix in ["", "-wal", "-shm", ".lock"] {
                try? FileManager.default.removeItem(atPath: database + suffix)
            }
        }
        let store = try SQLiteStateStore(path: database, mode: .applying)
        var activity = try ForgeActivity(stateFile: file, seed: UInt64(size.repos))
        let label = "\(size.repos) repos, \(items) items"
        return try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            var now = offline.now
            let cold = try await run(rules, simulator: simulator, store: store, now: now)
            if verbose { print("\(label): cold \(cold.reads.total): \(cold.reads.line)") }
            var written = cold.written
            var warm: [RunReads] = []
            var floors: [Int] = []
            for round in 1...rounds {
                let changed = try await activity.act(max(1, items / 100), on: simulator).union(written)
                try await simulator.control("{\"advance_seconds\": \(Int(interval))}")
                now += interval
                let result = try await run(rules, simulator: simulator, store: store, now: now)
                written = result.written
                warm.append(result.reads)
                let floor = floor(of: result.reads, changed: changed.count, repos: size.repos)
                floors.append(floor)
                if verbose {
                    print("  round \(round): \(result.reads.total) (floor \(floor), \(changed.count) changed)")
                    print("    \(result.reads.line)")
                    for step in result.steps { print("    \(step)") }
                }
            }
            let steady = Array(warm.dropFirst(2))
            let worst = steady.map(\.total).max() ?? 0
            let hourly = worst * Int(3600 / interval)
            var rows = [
                BenchRow(
                    name: "scale", size: label, measure: "cold run (guards first)",
                    value: "\(cold.reads.total): "
                        + cold.reads.line, target: "(reported)", verdict: "—"),
                BenchRow(
                    name: "scale", size: label, measure: "warm runs after 1% churn, each",
                    value: warm.map { "\($0.total)" }.joined(separator: ", "),
                    target: size.target.map { "third on ≤ \($0)" } ?? "(reported)",
                    verdict: size.target.map { worst <= $0 ? "PASS" : "FAIL" } ?? "—"),
                BenchRow(
                    name: "scale", size: label, measure: "worst warm run from the third, by command",
                    value: (steady.max { $0.total < $1.total } ?? RunReads(byCommand: [:])).line, target: "(reported)",
                    verdict: "—"),
                BenchRow(
                    name: "scale", size: label, measure: "worst warm run / floor",
                    value: "\(worst) / \(floors.dropFirst(2).max() ?? 0)", target: "(reported)", verdict: "—"),
                BenchRow(
                    name: "scale", size: label, measure: "a cron every 15 min, reads an hour",
                    value: "\(hourly) = " + String(format: "%.0f%%", 100 * Double(hourly) / Double(hourlyBudget))
                        + " of \(hourlyBudget)", target: "≤ 50%",
                    verdict: 2 * hourly <= hourlyBudget ? "PASS" : "FAIL"),
            ]
            rows.append(
                BenchRow(
                    name: "scale", size: label, measure: "sweep period",
                    value:
                        "\(Int(RepositorySweep.defaultPeriod / 3600)) h: a change nothing announces waits at most that",
                    target: "(documented)", verdict: "—"))
            return rows
        }
    }

    /// The floor of a warm run: its cross-repository listings (which no design skips), one read
    /// per changed item, and the sweep's share of repositories times the per-repository listings
    /// a quiet repository needs (builds, milestones, open merge requests).
    private static func floor(of reads: RunReads, changed: Int, repos: Int) -> Int {
        let listings = ["repo list", "feed", "issue list --q", "mr list --q", "whoami"].reduce(0) {
            $0 + (reads.byCommand[$1] ?? 0)
        }
        let share = Int((Double(repos) * interval / RepositorySweep.defaultPeriod).rounded(.up))
        return listings + changed + 3 * share
    }

    /// A run as `gitbay-bot run` does it: the feed into the state database, the read with its
    /// cache and sweep, the plan applied; its requests by command, its notes and what it wrote.
    private static func run(
        _ rules: [Rule], simulator: SimulatorProcess, store: SQLiteStateStore, now: Date
    ) async throws -> (reads: RunReads, steps: [String], written: Set<String>) {
        let registry = ShippedRules.registry
        // One client for the run, as the command has: apply's re-reads count among its requests.
        let bot = try simulator.client(access: .readWrite)
        let reader = CountingReader(bot)
        let me = try await reader.send(WhoAmICommand()).username
        let history = try await ActivityHistory.read(registry: registry, reader: reader, log: store, me: me)
        var policy = ReadPolicy(
            .guarded(EvaluationOptions()), cache: .trusts(store), sweepPeriod: RepositorySweep.defaultPeriod)
        policy.repositoryRules = RepositoryRulesPolicy()
        let (state, report) = try await ReadPlanner(registry: registry).read(
            rules, from: reader, at: now, policy: policy, basis: ReadBasis(me: me, activity: history))
        let repositoryRules = await RepositoryRules.load(
            state, policy: RepositoryRulesPolicy(), registry: registry, operatorRules: rules)
        let plan = Evaluator(registry: registry).plan(
            rules: rules + repositoryRules.rules, state: state, source: "bench")
        // The journal on the run's clock, as `run --now` keeps it: stamped on the real one, every
        // write would stand after every copy of the simulated days and outdate it for good.
        let applied = await Applier(registry: registry).apply(
            plan, reader: reader, writer: bot, journal: store, now: { now }, scheduleNow: { now })
        let written = Set(applied.outcomes.filter { $0.status == .applied }.map(\.item))
        return (RunReads(byCommand: reader.requests), [history.note].compactMap(\.self) + report.steps, written)
    }
}

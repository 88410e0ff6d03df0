import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// A plan's entries in one line each (rule, item, each action's status and argv), to show where two differ.
private func lines(_ entries: [PlanEntry]) -> [String] {
    entries.map { entry in
        "\(entry.rule) \(entry.item.reference): "
            + entry.actions.map { "\($0.status.rawValue) \($0.command?.argv.joined(separator: " ") ?? "-")" }
            .joined(separator: "; ") + " | " + entry.reasons.map { "\($0.field)=\($0.observed)" }.joined(separator: ",")
    }
}

/// The lines of `a` not in `b` and of `b` not in `a`.
private func difference(_ a: [PlanEntry], _ b: [PlanEntry]) -> String {
    let (left, right) = (lines(a), lines(b))
    return "only warm: \(left.filter { !right.contains($0) }), only cold: \(right.filter { !left.contains($0) })"
}

/// Incremental reads (guards first, the read cache) decide exactly what full, uncached reads do,
/// whatever other people did between runs and however much time passed.
@Suite struct IncrementalReadTests {
    /// 4 forges × 50 steps: each step is a random run of other people's activity and a jump of
    /// the clock, sometimes the bot applying its plan (its own writes must reach the cache too),
    /// then three reads: warm with guards, cold with `--no-cache --read-all`, warm with `--read-all`.
    @Test(arguments: TestDepth.seeds(quick: [11], deep: [11, 12, 13, 14]))
    func warmRunsActAsColdFullRunsDoAfterAnyActivity(seed: Int) async throws {
        let file = Scratch.url("incremental-\(seed)-\(UUID()).json")
        try await ForgeGenerator.write(to: file, repos: 2, issues: 30, mergeRequests: 10, builds: 12, seed: seed)
        var activity = try ForgeActivity(stateFile: file, seed: UInt64(seed))
        var random = SeededGenerator(seed: UInt64(seed) * 31)
        let options =
            ["--clock", "frozen", "--time-scale", "1000", "--api-rate", "1000000", "--write-rate", "1000000"]
            + ForgeActivity.simulatorOptions
        let rules = try shippedRules()
        let registry = BuiltinPlugins.registry
        let evaluator = Evaluator(registry: registry)
        let planner = ReadPlanner(registry: registry)
        let store = InMemoryStateStore()
        try await SimulatorProcess.run(stateFile: file, options: options) { simulator in
            var now = generatedNow
            var warmRequests = 0
            var coldRequests = 0
            for step in 0..<50 {
                let changed = try await activity.act(Int.random(in: 0...6, using: &random), on: simulator)
                let advance = [0, 60, 3_600, 86_400, 86_400 * 9].randomElement(using: &random) ?? 0
                try await simulator.control("{\"advance_seconds\": \(advance)}")
                now += TimeInterval(advance)
                let warmClient = try simulator.client()
                let (warm, warmReport) = try await planner.read(
                    rules, from: warmClient, at: now,
                    policy: ReadPolicy(.guarded(EvaluationOptions()), cache: .trusts(store)))
                let coldClient = try simulator.client()
                let (cold, coldReport) = try await planner.read(
                    rules, from: coldClient, at: now, policy: ReadPolicy(.audit))
                let (warmAll, _) = try await planner.read(
                    rules, from: try simulator.client(), at: now, policy: ReadPolicy(.audit, cache: .refreshes(store)))
                let warmPlan = evaluator.plan(rules: rules, state: warm, source: "sim")
                let coldPlan = evaluator.plan(rules: rules, state: cold, source: "sim")
                let context = "seed \(seed), step \(step), changed \(changed.sorted()), reads \(warmReport.steps)"
                #expect(
                    warmPlan.acting == coldPlan.acting, "\(difference(warmPlan.acting, coldPlan.acting)); \(context)")
                let warmAllPlan = evaluator.plan(rules: rules, state: warmAll, source: "sim")
                #expect(
                    warmAllPlan == coldPlan,
                    "\(difference(warmAllPlan.entries, coldPlan.entries)) \(warmAllPlan.guards) \(coldPlan.guards); \(context)"
                )
                warmRequests += warmReport.detailRequests
                coldRequests += coldReport.detailRequests
                #expect(warmClient.metrics.reads <= coldClient.metrics.reads, "\(context)")
                if random.chance(0.3) {
                    let bot = try simulator.client(access: .readWrite)
                    let at = now
                    _ = await Applier(registry: registry).apply(
                        warmPlan, reader: bot, writer: bot, journal: store, now: { at })
                }
            }
            // The cache must save reads, not only agree: a failure to restore would pass the checks above.
            #expect(warmRequests * 4 < coldRequests, "detail reads: warm \(warmRequests), cold \(coldRequests)")
        }
    }
}

/// A cache that lies in its payloads (a damaged file, a bug in an older version) costs reads, never
/// a wrong plan: what does not decode is read afresh.
@Suite struct DamagedCacheTests {
    @Test func undecodablePayloadsAreReadAfresh() async throws {
        let file = Scratch.url("damaged-\(UUID()).json")
        try await ForgeGenerator.write(to: file, repos: 1, issues: 30, mergeRequests: 8, builds: 6, seed: 5)
        let rules = try shippedRules()
        let planner = ReadPlanner(registry: BuiltinPlugins.registry)
        let evaluator = Evaluator(registry: BuiltinPlugins.registry)
        try await SimulatorProcess.run(stateFile: file, options: ["--clock", "frozen", "--api-rate", "1000000"]) {
            simulator in
            let store = InMemoryStateStore()
            let (cold, coldReport) = try await planner.read(
                rules, from: try simulator.client(), at: generatedNow,
                policy: ReadPolicy(.guarded(EvaluationOptions()), cache: .trusts(store)))
            var damaged: [CachedDetail] = []
            for kind in [ItemKind.issues, .mergeRequests] {
                damaged += store.cachedDetails(of: kind).map { entry in
                    var entry = entry
                    entry.payload = "{\"number\": \"not a number\"}"
                    return entry
                }
            }
            #expect(!damaged.isEmpty)
            store.storeDetails(damaged, at: generatedNow)
            let (warm, warmReport) = try await planner.read(
                rules, from: try simulator.client(), at: generatedNow,
                policy: ReadPolicy(.guarded(EvaluationOptions()), cache: .trusts(store)))
            #expect(warmReport.detailRequests == coldReport.detailRequests, "\(warmReport.steps)")
            #expect(warmReport.steps.contains { $0.contains("0 served from the read cache") })
            #expect(
                evaluator.plan(rules: rules, state: warm, source: "s").acting
                    == evaluator.plan(rules: rules, state: cold, source: "s").acting)
        }
    }
}

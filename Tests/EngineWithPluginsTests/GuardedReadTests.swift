import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import GitbayTestSupport
import RuleEngine
import Testing

private let simulatorOptions = ["--clock", "frozen", "--time-scale", "1000", "--api-rate", "1000000"]

/// Reading guards first leaves unread only what a guard holds back whatever it says: the entries
/// that act and their commands are those of a full read, under any guards.
@Suite struct GuardedReadTests {
    @Test(arguments: TestDepth.seeds(quick: [1], deep: [1, 2, 3]))
    func whatActsIsWhatAFullReadActsOnUnderAnyGuards(seed: Int) async throws {
        let file = Scratch.url("guarded-\(seed)-\(UUID()).json")
        try await ForgeGenerator.write(to: file, repos: 2, issues: 80, mergeRequests: 16, builds: 24, seed: seed)
        var random = SeededGenerator(seed: UInt64(seed))
        try await SimulatorProcess.run(stateFile: file, options: simulatorOptions) { simulator in
            for round in 0..<24 {
                let limited = ["mark-stale", "unmark-stale", "ready-when-stack-lands"].randomElement(using: &random)
                let rules = try shippedRules(
                    limit: random.chance(0.6) ? Int.random(in: 1...6, using: &random) : nil, on: limited ?? "")
                let guards = EvaluationOptions(
                    maxActions: [0, 1, 2, 5, 12, 50, 1000].randomElement(using: &random) ?? 50,
                    tripwireShare: [0.01, 0.05, 0.25, 0.6, 1].randomElement(using: &random) ?? 0.25,
                    tripwireFloor: [0, 3, 10].randomElement(using: &random) ?? 10, force: random.chance(0.2))
                let evaluator = Evaluator(registry: BuiltinPlugins.registry, options: guards)
                let planner = ReadPlanner(registry: BuiltinPlugins.registry)
                let fullClient = try simulator.client()
                let (full, _) = try await planner.read(
                    rules, from: fullClient, at: generatedNow, policy: ReadPolicy(.audit))
                let guardedClient = try simulator.client()
                let (guarded, _) = try await planner.read(
                    rules, from: guardedClient, at: generatedNow, policy: ReadPolicy(.guarded(guards)))
                let fullPlan = evaluator.plan(rules: rules, state: full, source: "s")
                let guardedPlan = evaluator.plan(rules: rules, state: guarded, source: "s")
                let context = "seed \(seed), round \(round), \(guards)"
                #expect(guardedPlan.acting == fullPlan.acting, "\(context)")
                #expect(guardedClient.metrics.reads <= fullClient.metrics.reads, "\(context)")
                // Nothing held is let through: the unread are only ever reported as held.
                #expect(guardedPlan.pendingCommandCount == fullPlan.pendingCommandCount, "\(context)")
                if guarded.unread.isEmpty {
                    #expect(guardedPlan.entries.filter(\.hasHeldActions).count <= fullPlan.entries.count)
                }
            }
        }
    }

    /// A rule whose matches already trip the tripwire from the listing alone (the label it adds is
    /// known to be missing) reads no detail at all, and the plan says how many it left unread.
    @Test func aTrippedRuleReadsNoDetailsAndSaysWhatItLeftUnread() async throws {
        let file = Scratch.url("tripwire-\(UUID()).json")
        try await ForgeGenerator.write(to: file, repos: 1, issues: 120, mergeRequests: 0, builds: 0, seed: 7)
        try await SimulatorProcess.run(stateFile: file, options: simulatorOptions) { simulator in
            // Decided by the listing alone: `idle` comes with the rows (the shipped rule's `quiet`
            // needs each issue's comments, so it must read them before it can trip).
            let rules = try rules(markStale)
            let guards = EvaluationOptions(maxActions: 1000)
            let reader = try simulator.client()
            let (state, report) = try await ReadPlanner(registry: BuiltinPlugins.registry).read(
                rules, from: reader, at: generatedNow, policy: ReadPolicy(.guarded(guards)))
            #expect(!report.steps.contains { $0.hasPrefix("issue details") }, "\(report.steps)")
            let plan = Evaluator(registry: BuiltinPlugins.registry, options: guards).plan(
                rules: rules, state: state, source: "s")
            let tripped = try #require(plan.guards.first { $0.hasPrefix("tripwire: rule 'mark-stale'") })
            #expect(plan.acting.isEmpty, "\(tripped)")
            let unread = try #require(state.unread.first)
            #expect(
                unread.hasPrefix("rule 'mark-stale': details of ") && unread.contains("held by the tripwire"),
                "\(unread)")
            // Every matching entry is held, none is sent, and none claims an invalid action.
            #expect(plan.entries.allSatisfy { $0.actions.allSatisfy { $0.status == .held } })
        }
    }
}

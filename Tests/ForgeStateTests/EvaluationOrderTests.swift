import BuildsPlugin
import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import IssuesPlugin
import MergeRequestsPlugin
import RuleEngine
import Testing

/// The evaluator runs all rules over each item in turn and decides with short-circuiting compiled
/// conditions; these pin that both give exactly what the plain definitions give.
@Suite struct EvaluationOrderTests {
    private static let registry = BuiltinPlugins.registry

    /// The project's rules, and the same rules again under other names and narrower scopes, so
    /// rules of one kind interleave over the same items and some skip a repository.
    private func rules() throws -> [Rule] {
        let directory = SimulatorProcess.repositoryRoot.appendingPathComponent("rules").path
        var files = try RuleSet.files(at: [directory])
        for (path, bytes) in files {
            let text = String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: "- name: ", with: "- name: runner-only-")
                .replacingOccurrences(of: "scope: owner:krz", with: "scope: repo:krz/runner")
            files.append(("runner-" + (path as NSString).lastPathComponent, Array(text.utf8)))
        }
        let set = RuleSet.load(files: files, registry: Self.registry)
        try #require(set.diagnostics.isEmpty, "\(set.diagnostics)")
        return set.rules
    }

    private func demoForge() throws -> ForgeState {
        try ForgeFiles.load(ForgeFiles.demoForge).forgeState()
    }

    @Test func aPlanOfManyRulesIsEachRulesPlanInTurn() throws {
        let rules = try rules()
        let state = try demoForge()
        let evaluator = Evaluator(registry: Self.registry, options: EvaluationOptions(maxActions: 10_000))
        let together = evaluator.plan(rules: rules, state: state, source: "t")
        let apart = rules.map { evaluator.plan(rules: [$0], state: state, source: "t") }
        #expect(together.entries == apart.flatMap(\.entries))
        #expect(together.rules == apart.flatMap(\.rules))
        #expect(together.guards == apart.flatMap(\.guards))
        // The comparison means something: several rules of a kind act, and scopes differ.
        #expect(Set(together.entries.map(\.rule)).count >= 6)
        #expect(together.rules.contains { $0.name.hasPrefix("runner-only-") && $0.considered > 0 })
    }

    /// Random `all`/`any`/`not` trees over the conditions the project's rules use, on every
    /// item of the demo forge, fully read and with nothing beyond the list rows read.
    @Test func decidingGivesTheVerdictOfEvaluatingEveryCondition() throws {
        let rules = try rules()
        let state = try demoForge()
        var random = SeededGenerator(seed: 0x6465_6369_6465)
        var verdicts: [Bool?: Int] = [:]
        for kind in BuiltinPlugins.registry.kinds {
            let leaves = rules.filter { $0.kind == kind }.flatMap { Self.leaves(of: $0.condition) }
            try #require(!leaves.isEmpty)
            let contexts = state.repositories.flatMap { repository in
                BuiltinPlugins.registry.items(of: kind, in: repository).flatMap { item in
                    [
                        ItemContext(
                            item: item, repository: repository, now: state.now, me: state.me,
                            registry: Self.registry),
                        ItemContext(
                            item: Self.unread(item), repository: Self.unread(repository), now: state.now,
                            me: state.me, registry: Self.registry),
                    ]
                }
            }
            for _ in 0..<200 {
                let tree = Self.randomTree(leaves: leaves, depth: 3, random: &random)
                let compiled = CompiledCondition(tree, kind: kind, registry: Self.registry)
                for context in contexts {
                    var results: [ConditionResult] = []
                    let evaluated = compiled.evaluate(context, results: &results)
                    #expect(compiled.decide(context) == evaluated, "\(tree)")
                    #expect(results.count == tree.tests.count)
                    verdicts[evaluated, default: 0] += 1
                }
            }
        }
        // Every verdict, unknown included, came up often enough to be compared.
        #expect(verdicts[true, default: 0] > 100)
        #expect(verdicts[false, default: 0] > 100)
        #expect(verdicts[nil, default: 0] > 100)
    }

    private static func leaves(of tree: ConditionTree) -> [ConditionTree] {
        switch tree {
        case .all(let trees), .any(let trees): return trees.flatMap(leaves(of:))
        case .not(let tree): return leaves(of: tree)
        case .test: return [tree]
        }
    }

    private static func randomTree(
        leaves: [ConditionTree], depth: Int, random: inout SeededGenerator
    ) -> ConditionTree {
        guard depth > 0, random.chance(0.7) else { return leaves.randomElement(using: &random)! }
        let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            randomTree(leaves: leaves, depth: depth - 1, random: &random)
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .all(parts)
        case 1: return .any(parts)
        default: return .not(parts[0])
        }
    }

    /// The item as a list row gives it: none of the reads beyond it done.
    private static func unread(_ item: Item) -> Item {
        if var record = item.record as? IssueRecord {
            record.known = []
            return .issue(record)
        }
        if var record = item.record as? MergeRequestRecord {
            record.known = []
            return .mergeRequest(record)
        }
        return item
    }

    private static func unread(_ repository: RepositoryState) -> RepositoryState {
        var repository = repository
        repository.known = []
        return repository
    }
}

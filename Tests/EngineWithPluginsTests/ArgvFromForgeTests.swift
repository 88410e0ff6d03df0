import BuiltinPlugins
import Foundation
import GitbayKit
import GitbayTestSupport
import Testing

@testable import RuleEngine

/// Every action of every kind, built on an item and on the same item after everything a push or
/// a new build moves (heads, commits, branch tips): an action whose command carries such a value
/// is caught by the applier's fresh-read check, and the list of those actions is pinned, so a new
/// one cannot carry a forge value past it unseen.
@Suite struct ArgvFromForgeTests {
    /// The demo forge, and the same forge with every commit it names replaced by another.
    private static func states() throws -> (ForgeState, ForgeState) {
        let url = SimulatorProcess.repositoryRoot.appendingPathComponent("examples/demo-forge.json")
        let data = try Data(contentsOf: url)
        let moved = try JSONSerialization.data(
            withJSONObject: Self.moveCommits(try JSONSerialization.jsonObject(with: data)))
        return (
            try ForgeStateFile.load(from: data, registry: BuiltinPlugins.registry).forgeState(),
            try ForgeStateFile.load(from: moved, registry: BuiltinPlugins.registry).forgeState()
        )
    }

    /// `json` with every 40-hex string (a commit) replaced by another of the same shape.
    private static func moveCommits(_ json: Any) -> Any {
        switch json {
        case let text as String where text.count == 40 && text.allSatisfy(\.isHexDigit):
            return String(text.reversed())
        case let array as [Any]:
            return array.map(moveCommits)
        case let object as [String: Any]:
            return object.mapValues(moveCommits)
        default:
            return json
        }
    }

    /// An argument of the kind `definition` takes, each parameter at its first allowed value.
    private static func argument(for definition: ActionDefinition) -> ActionArgument {
        switch definition.argument {
        case .none: return .none
        case .labels, .users: return .names(["someone"])
        case .text: return .text("a word")
        case .milestone: return .milestone("v1")
        case .parameters:
            let values = definition.parameters.map { ($0.name, $0.values?.first ?? "gitbay-bot/check") }
            return .parameters(Dictionary(uniqueKeysWithValues: values))
        }
    }

    @Test func onlyTheActionsWhoseCommandCarriesACommitAreRefusedOnceItMoved() throws {
        let registry = BuiltinPlugins.registry
        let (before, after) = try Self.states()
        var carrying: [String] = []
        var built = 0
        for kind in registry.kinds {
            for definition in registry.actions(for: kind) {
                for (repository, movedRepository) in zip(before.repositories, after.repositories) {
                    let items = registry.items(of: kind, in: repository)
                    let movedItems = registry.items(of: kind, in: movedRepository)
                    for (item, movedItem) in zip(items, movedItems) {
                        let context = ItemContext(
                            item: item, repository: repository, now: before.now, me: before.me, registry: registry)
                        let movedContext = ItemContext(
                            item: movedItem, repository: movedRepository, now: after.now, me: after.me,
                            registry: registry)
                        let request = ActionRequest(
                            argument: Self.argument(for: definition), rule: "r", marker: "<!-- gitbay-bot:rule=r -->")
                        guard let planned = try? definition.command(request, context) else { continue }
                        built += 1
                        let moved = Applier.moved(
                            planned, definition: definition, request: request, context: movedContext)
                        let rebuilt = try? definition.command(request, movedContext)
                        #expect((moved == nil) == (rebuilt?.argv == planned.argv), "\(kind) \(definition.name)")
                        if moved != nil, !carrying.contains("\(kind) \(definition.name)") {
                            carrying.append("\(kind) \(definition.name)")
                        }
                    }
                }
            }
        }
        // Every action was built somewhere, and only a status names a commit.
        #expect(built > 50)
        #expect(carrying == ["merge_requests set-status"])
    }
}

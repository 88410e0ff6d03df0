import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import YAML

/// `gitbay-bot explain ITEM`: why each rule did or did not fire on one item.
struct ExplainCommand {
    static let spec = CommandSpec(
        name: "explain",
        abstract: "Show why each rule does or does not act on one item.",
        discussion: """
            ITEM is owner/name#12 (an issue), owner/name!12 (a merge request) or \
            owner/name/builds/4213 (a build). Every rule of the item's kind is shown with every \
            condition, the value observed and the verdict, the nearest miss of a rule that did not \
            match, and the limit or guard that held an action back. Reads only.
            """,
        options: SharedOptions.evaluation,
        positionals: [
            PositionalSpec("item", help: "owner/name#12, owner/name!12 or owner/name/builds/4213."),
            SharedOptions.rules,
        ]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console

    func run() async throws(CommandFailure) -> BotExitCode {
        let text = invocation.positional("item") ?? ""
        guard let reference = ItemReference(parsing: text) else {
            throw CommandFailure(
                "'\(text)' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213", code: .usage)
        }
        let run = PlanningRun(invocation: invocation, environment: environment, console: console)
        let (rules, state, source) = try await run.state(for: reference)
        let evaluator = Evaluator(registry: BuiltinPlugins.registry, options: try run.evaluationOptions())
        guard let repository = state.repositories.first(where: { $0.path == reference.repository }),
            let item = Evaluator.items(of: reference.kind, in: repository).first(where: {
                $0.number == reference.number
            })
        else {
            throw CommandFailure("\(reference) is not in \(source) (or not among what the rules read)", code: .failure)
        }
        let plan = evaluator.plan(rules: rules, state: state, source: source)
        let results = rules.filter { $0.kind == reference.kind }.map { rule in
            let inScope = rule.scope.contains(reference.repository)
            let (holds, conditions, actions) = evaluator.explain(rule, item: item, in: repository, state: state)
            let planned = plan.entries.first { $0.rule == rule.name && $0.item.reference == reference.description }
            let verdict: Explanation.Verdict =
                !inScope ? .notMatched : holds == true ? .matched : holds == false ? .notMatched : .unknown
            return Explanation.RuleResult(
                name: rule.name, description: rule.description, location: rule.location.description, inScope: inScope,
                verdict: verdict, conditions: conditions, actions: planned?.actions ?? (inScope ? actions : []))
        }
        let explanation = Explanation(
            evaluatedAt: state.now, me: state.me, source: source,
            item: PlannedItem(
                repository: reference.repository.description, kind: reference.kind, number: reference.number,
                title: item.title, reference: reference.description),
            rules: results, guards: plan.guards)
        switch invocation.value("format") {
        case "json": console.write(ExplainRenderer.json(explanation), to: .output)
        case "markdown": console.write(ExplainRenderer.markdown(explanation), to: .output)
        default:
            let width = environment["COLUMNS"].flatMap { Int($0) } ?? 80
            console.write(
                ExplainRenderer.text(explanation, colour: console.isTerminal(.output), width: width), to: .output)
        }
        return .ok
    }
}

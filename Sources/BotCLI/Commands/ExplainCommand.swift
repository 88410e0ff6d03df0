import ArgumentParsing
import Foundation
import RuleEngine

/// `gitbay-bot explain ITEM`: why each rule did or did not fire on one item.
struct ExplainCommand {
    static let spec = CommandSpec(
        name: "explain",
        abstract: "Show why each rule does or does not act on one item.",
        discussion: """
            ITEM is owner/name#12 (an issue), owner/name!12 (a merge request) or \
            owner/name/builds/4213 (a build). Every rule of the item's kind is shown with every \
            condition, the value observed and the verdict, the nearest miss of a rule that did not \
            match, and the limit or guard that held an action back. Reads only; who did what to the \
            item comes from the feed and the state database's journal, as for a run.
            """,
        options: SharedOptions.evaluation + [SharedOptions.stateDir],
        positionals: [
            PositionalSpec("item", help: "owner/name#12, owner/name!12 or owner/name/builds/4213."),
            SharedOptions.rules,
        ]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry
    let control: CommandControl

    func run() async throws(CommandFailure) -> BotExitCode {
        let text = invocation.positional("item") ?? ""
        guard let reference = registry.reference(parsing: text) else {
            throw CommandFailure(
                "'\(text)' names no item; write owner/name#12, owner/name!12 or owner/name/builds/4213", code: .usage)
        }
        let run = PlanningRun(
            invocation: invocation, environment: environment, console: console, registry: registry, control: control)
        let (rules, state, source) = try await run.state(for: reference)
        let evaluator = Evaluator(registry: registry, options: try run.evaluationOptions())
        guard let explanation = evaluator.explanation(of: reference, rules: rules, state: state, source: source) else {
            throw CommandFailure("\(reference) is not in \(source) (or not among what the rules read)", code: .failure)
        }
        switch invocation.value("format") {
        case "json": console.write(ExplainRenderer.json(explanation), to: .output)
        case "markdown":
            console.write(ExplainRenderer.markdown(explanation, noun: registry.noun(of: reference.kind)), to: .output)
        default:
            let width = environment["COLUMNS"].flatMap { Int($0) } ?? 80
            console.write(
                ExplainRenderer.text(
                    explanation, noun: registry.noun(of: reference.kind), colour: console.isTerminal(.output),
                    width: width), to: .output)
        }
        return .ok
    }
}

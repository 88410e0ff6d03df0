import ArgumentParsing
import Foundation
import RuleEngine

/// `gitbay-bot explain ITEM`: why each rule did or did not fire on one item.
struct ExplainCommand: BotCommand {
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
        options: SharedOptions.evaluation + [SharedOptions.stateDir.spec],
        positionals: [
            item,
            SharedOptions.rules,
        ]
    )

    static let item = PositionalSpec("item", help: "owner/name#12, owner/name!12 or owner/name/builds/4213.")

    let planning: PlanningRun
    let reference: ItemReference

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        planning = try PlanningRun(invocation, context: context)
        reference = try context.item(invocation.positional(Self.item.name) ?? "")
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let run = planning
        let registry = run.registry
        let console = run.console
        let (explanation, source) = try await BotSession.explain(reference, planning: run)
        guard let explanation else {
            throw CommandFailure("\(reference) is not in \(source) (or not among what the rules read)", code: .failure)
        }
        switch run.input.format {
        case .json, .jsonl: console.write(ExplainRenderer.json(explanation), to: .output)
        case .markdown:
            console.write(ExplainRenderer.markdown(explanation, noun: registry.noun(of: reference.kind)), to: .output)
        case .text:
            console.write(
                ExplainRenderer.text(
                    explanation, noun: registry.noun(of: reference.kind), colour: console.isTerminal(.output),
                    width: run.context.width), to: .output)
        }
        return .ok
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import RuleEngine

/// `gitbay-bot plan`: the dry run, printed and saved if asked; it cannot write.
struct PlanCommand {
    static let spec = CommandSpec(
        name: "plan",
        abstract: "Show what the rules would do, without doing it.",
        discussion: """
            Reads the forge (or a --snapshot) through a read-only client, so it cannot write, and \
            prints every action with its exact command and the conditions that chose it. Save the \
            plan with -o and apply exactly that plan later with 'gitbay-bot apply'. With \
            --detailed-exitcode it exits 2 when actions are pending and 0 when there is nothing to do.
            """,
        options: SharedOptions.evaluation + [
            .value("output", short: "o", valueName: "file", help: "Also save the plan as JSON to this file."),
            .flag("detailed-exitcode", help: "Exit 2 when actions are pending, 0 when there is nothing to do."),
        ],
        positionals: [SharedOptions.rules]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console

    func run() async throws(CommandFailure) -> BotExitCode {
        let run = PlanningRun(invocation: invocation, environment: environment, console: console)
        let outcome = try await run.evaluate(access: .readOnly)
        console.write(run.render(outcome.plan), to: .output)
        if let path = invocation.value("output") {
            do {
                try Data(PlanRenderer.json(outcome.plan).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandFailure("cannot write the plan to \(path): \(error.localizedDescription)", code: .failure)
            }
        }
        if invocation.flag("detailed-exitcode"), outcome.plan.pendingCommandCount > 0 {
            return .pending
        }
        return .ok
    }
}

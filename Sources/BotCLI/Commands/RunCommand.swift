import ArgumentParsing
import Foundation
import GitbayClient
import RuleEngine

/// `gitbay-bot run`: the cron entry point; evaluates the rules and applies the plan.
struct RunCommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Evaluate the rules and do what they say (the scheduled job).",
        discussion: """
            Prints the plan, then applies it: each item is read again first, and an entry whose \
            conditions no longer hold is skipped with the reason. With --dry-run nothing is written \
            (the client refuses every write), exactly as 'plan'. Every write and its result go to the \
            journal. Exits 0 when everything was done, 3 when a guard, a limit or a failure left \
            something undone, 75 when rate-limited, 130 when interrupted.
            """,
        options: SharedOptions.evaluation + [
            .flag("dry-run", help: "Print the plan and write nothing."),
            SharedOptions.journal,
        ],
        positionals: [SharedOptions.rules]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console

    func run() async throws(CommandFailure) -> BotExitCode {
        let dryRun = invocation.flag("dry-run") || invocation.value("snapshot") != nil
        let run = PlanningRun(invocation: invocation, environment: environment, console: console)
        let settings = try run.settings()
        let outcome = try await run.evaluate(access: dryRun ? .readOnly : .readWrite, settings: settings)
        console.write(run.render(outcome.plan), to: .output)
        guard !dryRun, let client = outcome.client else {
            return outcome.plan.guards.isEmpty ? .ok : .incomplete
        }
        return try await ApplyCommand.apply(
            outcome.plan, client: client, journalPath: settings.journal, console: console)
    }
}

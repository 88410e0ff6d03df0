import ArgumentParsing
import Foundation
import GitbayClient
import MergeRequestsPlugin
import RuleEngine

/// `gitbay-bot plan`: the dry run, printed and saved if asked; it cannot write.
struct PlanCommand: BotCommand, PlanPort {
    static let spec = CommandSpec(
        name: "plan",
        abstract: "Show what the rules would do, without doing it.",
        discussion: """
            Reads the forge (or a --snapshot) through a read-only client, so it cannot write, and \
            prints every action with its exact command and the conditions that chose it. Save the \
            plan with -o and apply exactly that plan later with 'gitbay-bot apply'. With \
            --detailed-exitcode it exits 2 when actions are pending and 0 when there is nothing to do. \
            --mr-section keeps the plan in a marked section of a merge request's description (gitbay \
            cannot edit comments); that one edit is the only write, through a client of its own.
            """,
        options: SharedOptions.evaluation + [
            SharedOptions.readAll,
            SharedOptions.noCache,
            SharedOptions.sweepPeriod.spec,
            SharedOptions.readBudget.spec,
            SharedOptions.stateDir.spec,
            output.spec,
            detailedExitCode,
            SharedOptions.report.spec,
            mrSection,
        ],
        positionals: [SharedOptions.rules]
    )

    static let output = TypedOption<String>(
        .value("output", short: "o", valueName: "file", help: "Also save the plan as JSON to this file."))
    static let detailedExitCode = OptionSpec.flag(
        "detailed-exitcode", help: "Exit 2 when actions are pending, 0 when there is nothing to do.")
    static let mrSection = OptionSpec.value(
        "mr-section", valueName: "owner/name!n",
        help: "Keep the Markdown plan in a marked section of this merge request's description.")

    let planning: PlanningRun
    let output: String?
    let detailedExitCode: Bool
    /// Where `--report` writes the Markdown report.
    let reportPath: String?
    /// The merge request whose description keeps the plan (`--mr-section`).
    let mergeRequest: ItemReference?

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        planning = try PlanningRun(invocation, context: context)
        output = try Self.output.value(in: invocation)
        detailedExitCode = invocation.flag(Self.detailedExitCode)
        reportPath = try SharedOptions.report.value(in: invocation)
        mergeRequest = try invocation.value(Self.mrSection).map { text throws(CommandFailure) in
            guard let reference = context.registry.reference(parsing: text), reference.kind == .mergeRequests
            else {
                throw CommandFailure("--mr-section takes a merge request, owner/name!12, not '\(text)'", code: .usage)
            }
            return reference
        }
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = planning.console
        let outcome = try await BotSession.evaluate(planning, applying: nil, port: self)
        let code: BotExitCode =
            detailedExitCode && outcome.plan.pendingCommandCount > 0 ? .pending : .ok
        if let path = reportPath {
            let report = RunReport(
                plan: outcome.plan, applied: nil, metrics: outcome.session?.client.metrics, exitCode: code)
            try OutputFile.write(Data(RunReportRenderer.markdown(report).utf8), to: path, what: "the report")
        }
        if let mergeRequest {
            let writer = try ForgeConnection.client(
                outcome.settings, access: .readWrite, console: console, control: planning.context.control)
            do {
                let edited = try await PlanSection.publish(
                    PlanRenderer.markdown(outcome.plan), on: mergeRequest, client: writer)
                console.write("plan section of \(mergeRequest): \(edited ? "updated" : "unchanged")\n", to: .error)
            } catch {
                throw ReportFile.failure(
                    error, publishing: "the description of \(mergeRequest)", on: writer.configuration.baseURL)
            }
        }
        if let path = output {
            try OutputFile.write(Data(PlanRenderer.json(outcome.plan).utf8), to: path, what: "the plan")
        }
        return code
    }

    /// Shows the plan as `--format` asks.
    func show(_ plan: Plan, session: BotSession?) {
        planning.console.write(planning.render(plan), to: .output)
    }
}

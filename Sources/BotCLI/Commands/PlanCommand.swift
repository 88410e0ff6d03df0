import ArgumentParsing
import Foundation
import GitbayClient
import MergeRequestsPlugin
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
            --detailed-exitcode it exits 2 when actions are pending and 0 when there is nothing to do. \
            --mr-section keeps the plan in a marked section of a merge request's description (gitbay \
            cannot edit comments); that one edit is the only write, through a client of its own.
            """,
        options: SharedOptions.evaluation + [
            SharedOptions.readAll,
            SharedOptions.noCache,
            SharedOptions.stateDir,
            .value("output", short: "o", valueName: "file", help: "Also save the plan as JSON to this file."),
            .flag("detailed-exitcode", help: "Exit 2 when actions are pending, 0 when there is nothing to do."),
            SharedOptions.report,
            .value(
                "mr-section", valueName: "owner/name!n",
                help: "Keep the Markdown plan in a marked section of this merge request's description."),
        ],
        positionals: [SharedOptions.rules]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry
    let control: CommandControl

    func run() async throws(CommandFailure) -> BotExitCode {
        let mergeRequest = try invocation.value("mr-section").map { text throws(CommandFailure) in
            guard let reference = registry.reference(parsing: text), reference.kind == .mergeRequests
            else {
                throw CommandFailure("--mr-section takes a merge request, owner/name!12, not '\(text)'", code: .usage)
            }
            return reference
        }
        let run = PlanningRun(
            invocation: invocation, environment: environment, console: console, registry: registry, control: control)
        let settings = try run.settings()
        let outcome = try await run.evaluate(access: .readOnly, settings: settings, stateUse: .planning)
        console.write(run.render(outcome.plan), to: .output)
        let code: BotExitCode =
            invocation.flag("detailed-exitcode") && outcome.plan.pendingCommandCount > 0 ? .pending : .ok
        if let path = invocation.value("report") {
            let report = RunReport(
                plan: outcome.plan, applied: nil, metrics: outcome.session?.client.metrics, exitCode: code)
            try OutputFile.write(Data(RunReportRenderer.markdown(report).utf8), to: path, what: "the report")
        }
        if let mergeRequest {
            let writer = try ForgeConnection.client(
                settings, access: .readWrite, console: console, control: control)
            do {
                let edited = try await PlanSection.publish(
                    PlanRenderer.markdown(outcome.plan), on: mergeRequest, client: writer)
                console.write("plan section of \(mergeRequest): \(edited ? "updated" : "unchanged")\n", to: .error)
            } catch {
                throw ReportFile.failure(
                    error, publishing: "the description of \(mergeRequest)", on: writer.configuration.baseURL)
            }
        }
        if let path = invocation.value("output") {
            try OutputFile.write(Data(PlanRenderer.json(outcome.plan).utf8), to: path, what: "the plan")
        }
        return code
    }
}

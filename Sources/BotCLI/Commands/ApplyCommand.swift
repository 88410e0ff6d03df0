import ArgumentParsing
import Foundation
import GitbayClient
import RuleEngine

/// `gitbay-bot apply PLAN`: applies exactly a saved plan, re-checking each entry first.
struct ApplyCommand {
    static let spec = CommandSpec(
        name: "apply",
        abstract: "Apply a plan saved with 'plan -o', re-checking every entry first.",
        discussion: """
            Sends exactly the commands the plan shows. Each item is read again before its actions, \
            and an entry whose conditions no longer hold, or whose action someone already did, is \
            skipped with the reason.
            """,
        options: SharedOptions.connection + [
            SharedOptions.format,
            SharedOptions.journal,
        ],
        positionals: [PositionalSpec("plan", help: "The plan file (JSON) written by 'plan -o'.")]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console

    func run() async throws(CommandFailure) -> BotExitCode {
        let path = invocation.positional("plan") ?? ""
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the plan \(path)", code: .usage)
        }
        let plan: Plan
        do {
            plan = try PlanJSON.decodePlan(from: data)
        } catch {
            throw CommandFailure("\(path) is not a \(Plan.currentFormat) plan: \(error)", code: .usage)
        }
        let settings = try ConfigurationLoader.settings(
            invocation: invocation, environment: environment, console: console)
        let client = try ForgeConnection.client(settings, access: .readWrite, console: console)
        return try await Self.apply(plan, client: client, journalPath: settings.journal, console: console).code
    }

    /// Applies a plan with the journal and the stop signals handled, prints the outcome and picks the exit code;
    /// the report goes back too, for `run --report`.
    static func apply(
        _ plan: Plan, client: GitbayClient, journalPath: String, console: any Console
    ) async throws(CommandFailure) -> (code: BotExitCode, report: ApplyReport) {
        let journal: FileJournal
        do {
            journal = try FileJournal(path: journalPath)
        } catch {
            switch error {
            case .busy:
                throw CommandFailure(
                    "another gitbay-bot run is applying with the journal \(journalPath); try again when it is done",
                    code: .temporaryFailure)
            case .failed(let error):
                throw CommandFailure(
                    "\(StateFileError(path: journalPath, action: "open the journal", underlying: error))",
                    code: .ioError)
            }
        }
        let stop = StopSignals()
        stop.start()
        defer { stop.stop() }
        let unfinished = UnfinishedAction.find(in: FileJournal.entries(at: journalPath))
        let report = await Applier(registry: BuiltinPlugins.registry).apply(
            plan, unfinished: unfinished, reader: client, writer: client, journal: journal,
            shouldStop: { stop.isRaised },
            progress: { outcome in
                guard console.isTerminal(.error) else { return }
                console.write("\(outcome.status.rawValue): \(outcome.action) on \(outcome.item)\n", to: .error)
            })
        console.write(ApplyReportRenderer.text(report), to: .output)
        if let rejection = report.tokenRejection {
            throw CommandFailure(
                "stopped: the server turned the token away: \(rejection); check the token (GITBAY_TOKEN or "
                    + "--token-file): it may have been revoked or have expired", code: .failure)
        }
        if let failure = report.journalFailure {
            throw CommandFailure(
                "stopped: \(failure); nothing was sent after it, and the next run re-reads every item it touched",
                code: .ioError)
        }
        if report.interrupted { return (.stopped(by: stop.signal), report) }
        if report.outcomes.contains(where: { $0.status == .failed && $0.retryLater }) {
            return (.temporaryFailure, report)
        }
        return (report.isComplete && plan.guards.isEmpty ? .ok : .incomplete, report)
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine

/// `gitbay-bot run`: the cron entry point; evaluates the rules and applies the plan.
///
/// The session does the work (``BotSession/evaluate(_:applying:port:)``), showing the plan through
/// the command (``PlanPort``) before it applies it; the command reports what came of it.
struct RunCommand: BotCommand, PlanPort {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Evaluate the rules and do what they say (the scheduled job).",
        discussion: """
            Prints the plan, then applies it: each item is read again first, and an entry whose \
            conditions no longer hold is skipped with the reason. With --dry-run nothing is written \
            (the client refuses every write), exactly as 'plan'. Every write and its result go to the \
            journal. Exits 0 when everything was done, 3 when a guard, a limit or a failure left \
            something undone, 69 when the server cannot be reached, 74 when a file or the journal cannot be \
            written, 75 when rate-limited, 78 when the rules or the configuration are invalid (each mistake \
            at its line and column, before anything is read), 130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP (at once, \
            after the write in flight if one is).
            """,
        options: SharedOptions.evaluation + [
            SharedOptions.readAll,
            SharedOptions.noCache,
            SharedOptions.sweepPeriod.spec,
            SharedOptions.readBudget.spec,
            dryRun,
            SharedOptions.stateDir.spec,
            SharedOptions.journal.spec,
            SharedOptions.report.spec,
            summaryIssue.spec,
        ],
        positionals: [SharedOptions.rules]
    )

    static let dryRun = OptionSpec.flag("dry-run", help: "Print the plan and write nothing.")
    static let summaryIssue = TypedOption<RepositoryPath>(
        .value(
            "summary-issue", valueName: "owner/name",
            help: "Keep one issue in this repository showing the last run (found by a hidden marker).")
    ) { text throws(CommandFailure) in
        do {
            return try RepositoryPath(text)
        } catch {
            throw CommandFailure("--summary-issue takes owner/name: \(error)", code: .usage)
        }
    }

    let planning: PlanningRun
    /// Whether nothing is written: `--dry-run`, or a `--snapshot` run, which has no server.
    let dryRun: Bool
    /// Where `--report` writes the Markdown report.
    let reportPath: String?
    let summaryRepository: RepositoryPath?

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        planning = try PlanningRun(invocation, context: context)
        dryRun = invocation.flag(Self.dryRun) || planning.input.snapshot != nil
        reportPath = try SharedOptions.report.value(in: invocation)
        summaryRepository = try Self.summaryIssue.value(in: invocation)
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = planning.console
        let outcome = try await BotSession.evaluate(planning, applying: dryRun ? nil : "run", port: self)
        let code = outcome.applied?.code ?? (outcome.plan.guards.isEmpty ? .ok : .incomplete)
        let report = RunReport(
            plan: outcome.plan, applied: outcome.applied?.report, metrics: outcome.session?.client.metrics,
            exitCode: code)
        if let path = reportPath {
            try OutputFile.write(Data(RunReportRenderer.markdown(report).utf8), to: path, what: "the report")
        }
        if let summaryRepository {
            guard !dryRun, let client = outcome.session?.client else {
                console.write("note: a dry run leaves the summary issue alone\n", to: .error)
                return code
            }
            // A stop signal asked for no more writes, and its exit code is what systemd and CI expect.
            guard !code.isStopBySignal else {
                console.write("note: stopped by a signal, so the summary issue is left alone\n", to: .error)
                return code
            }
            let issue = SummaryIssue(repository: summaryRepository, ruleNames: outcome.rules.map(\.name))
            do {
                let result = try await issue.publish(RunReportRenderer.markdown(report), client: client)
                console.write("summary issue: \(describe(result, in: summaryRepository))\n", to: .error)
            } catch {
                throw ReportFile.failure(
                    error, publishing: "the summary issue in \(summaryRepository)", on: client.configuration.baseURL)
            }
        }
        return code
    }

    /// Shows the plan before it is applied, after the warning of a frozen clock on a live server.
    func show(_ plan: Plan, session: BotSession?) {
        if !dryRun, let session, let frozen = planning.input.now {
            planning.console.write(
                Self.frozenClockWarning(frozen.written, plan: plan, server: session.client), to: .error)
        }
        planning.console.write(planning.render(plan), to: .output)
    }

    /// The warning of a run that judges at `--now` (`text`) while writing to a live server.
    ///
    /// `--now` is for tests and drills against a simulator, and for offline plans; against a real
    /// forge it makes durations (`idle`, `quiet`, ages) run to that instant, so a later one does
    /// now what is due only then. It is allowed (the simulator's drills rely on it) but never silent.
    static func frozenClockWarning(_ text: String, plan: Plan, server: GitbayClient) -> String {
        let offset = plan.evaluatedAt.timeIntervalSinceNow
        let distance =
            abs(offset) < 60
            ? "within a minute of this machine's clock"
            : "\(DurationLiteral.describe(seconds: abs(offset))) \(offset > 0 ? "ahead of" : "behind") this machine's clock"
        return "warning: --now \(text): judging the rules at a frozen instant (\(distance)) while writing to "
            + "\(ForgeConnection.shown(server.configuration.baseURL)) for real; what is due at that instant is done now\n"
    }

    private func describe(_ result: SummaryIssue.Result, in repository: RepositoryPath) -> String {
        switch result {
        case .created(let number): return "filed \(repository)#\(number)"
        case .edited(let number): return "updated \(repository)#\(number)"
        case .unchanged(let number): return "\(repository)#\(number) already shows this run"
        }
    }
}

import ArgumentParsing
import BuiltinPlugins
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import StateDatabase

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
            SharedOptions.stateDir,
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
        // A plan reviewed for one server names other items on another; one from a snapshot may go anywhere.
        let server = settings.url.absoluteString
        guard
            plan.source.hasPrefix("snapshot:")
                || StoreIdentity.canonical(server: plan.source) == StoreIdentity.canonical(server: server)
        else {
            throw CommandFailure(
                "\(path) was planned against \(plan.source), not \(server); make a new plan against this server",
                code: .usage)
        }
        let client = try ForgeConnection.client(settings, access: .readWrite, console: console)
        return try await Self.apply(
            plan, client: client, settings: settings, command: "apply", checkAccount: true, console: console
        ).code
    }

    /// Applies a plan with the state database and the stop signals handled, prints the outcome
    /// and picks the exit code; the report goes back too, for `run --report`.
    ///
    /// - Parameters:
    ///   - command: the command that applies (`run`, `apply`), for `history`.
    ///   - checkAccount: whether to ask the server whose token this is first: a saved plan was
    ///     decided for its `me` (`@me`, the bot's own comments), and its writes must go out as that
    ///     account and into that account's journal.
    ///   - store: the account's database when the caller opened it (`run`, before it read).
    static func apply(
        _ plan: Plan, client: GitbayClient, settings: Settings, command: String, checkAccount: Bool = false,
        store opened: SQLiteStateStore? = nil, console: any Console
    ) async throws(CommandFailure) -> (code: BotExitCode, report: ApplyReport) {
        let store: SQLiteStateStore
        if let opened {
            store = opened
        } else {
            store = try StateStoreOpening.open(
                settings, server: client.configuration.baseURL, account: plan.me, console: console)
        }
        if checkAccount {
            let account = try await StateStoreOpening.account(of: client)
            guard account == plan.me else {
                throw CommandFailure(
                    "the plan was made for \(plan.me), but the token belongs to \(account); apply it with "
                        + "\(plan.me)'s token, or make a new plan with this one", code: .usage)
            }
        }
        let (run, unfinished) = try StateStoreOpening.begin(command, in: store)
        let stop = StopSignals()
        stop.start()
        defer { stop.stop() }
        let report = await Applier(registry: BuiltinPlugins.registry).apply(
            plan, unfinished: unfinished, reader: client, writer: client, journal: store, run: run.id,
            shouldStop: { stop.isRaised },
            progress: { outcome in
                guard console.isTerminal(.error) else { return }
                console.write("\(outcome.status.rawValue): \(outcome.action) on \(outcome.item)\n", to: .error)
            })
        console.write(ApplyReportRenderer.text(report), to: .output)
        let code = try settle(
            report, plan: plan, signal: stop.signal, run: run, store: store, settings: settings,
            console: console)
        return (code, report)
    }

    /// Records how the applying `run` ended and answers its exit code, or throws the failure that
    /// stopped it (a token turned away, a journal that cannot be written): `apply`, `run` and each
    /// `watch` pass end the same way.
    static func settle(
        _ report: ApplyReport, plan: Plan, signal: Int32?, run: RunRecord, store: any StateStore,
        settings: Settings, console: any Console
    ) throws(CommandFailure) -> BotExitCode {
        let outcome = Self.outcome(of: report, plan: plan, signal: signal)
        let code: BotExitCode
        switch outcome {
        case .success(let success): code = success
        case .failure(let failure): code = failure.code
        }
        StateStoreOpening.finish(run.id, code: code, in: store, retention: settings.retention, console: console)
        return try outcome.get()
    }

    /// The exit code of an applied plan, or the failure that stopped it.
    private static func outcome(
        of report: ApplyReport, plan: Plan, signal: Int32?
    ) -> Result<BotExitCode, CommandFailure> {
        if let rejection = report.tokenRejection {
            return .failure(
                CommandFailure(
                    "stopped: the server turned the token away: \(rejection); check the token (GITBAY_TOKEN or "
                        + "--token-file): it may have been revoked or have expired", code: .failure))
        }
        if let failure = report.journalFailure {
            return .failure(
                CommandFailure(
                    "stopped: \(failure); nothing was sent after it, and the next run re-reads every item it touched",
                    code: .ioError))
        }
        if report.interrupted { return .success(.stopped(by: signal)) }
        if report.outcomes.contains(where: { $0.status == .failed && $0.retryLater }) {
            return .success(.temporaryFailure)
        }
        return .success(report.isComplete && plan.guards.isEmpty ? .ok : .incomplete)
    }
}

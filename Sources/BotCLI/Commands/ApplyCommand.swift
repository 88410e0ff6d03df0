import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
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
            skipped with the reason. Only a plan made against this server, for the account of \
            the token, is applied; one made offline from --snapshot is refused (exit 64).
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
    let registry: PluginRegistry
    let control: CommandControl

    func run() async throws(CommandFailure) -> BotExitCode {
        let path = invocation.positional("plan") ?? ""
        let data = try InputFile.read(path, what: "the plan")
        let plan: Plan
        do {
            plan = try PlanJSON.decodePlan(from: data)
        } catch {
            throw CommandFailure("\(path) is not a \(Plan.currentFormat) plan: \(error)", code: .usage)
        }
        let settings = try ConfigurationLoader.settings(
            invocation: invocation, environment: environment, console: console)
        // A plan reviewed for one server names other items on another. One made offline from a
        // snapshot was judged on a file, whose items and times need not be any server's (a
        // fixture, a copy of last month's forge): it is for reading, never for writing.
        let server = settings.url.absoluteString
        if plan.source.hasPrefix("snapshot:") {
            throw CommandFailure(
                "\(path) was planned offline from \(plan.source), not against a server; a snapshot's items need "
                    + "not be \(ForgeConnection.shown(settings.url))'s: make a plan against the server ('plan -o' "
                    + "without --snapshot) and apply that", code: .usage)
        }
        guard StoreIdentity.canonical(server: plan.source) == StoreIdentity.canonical(server: server) else {
            throw CommandFailure(
                "\(path) was planned against \(plan.source), not \(server); make a new plan against this server",
                code: .usage)
        }
        // A saved plan was decided for its `me` (`@me`, the bot's own comments): its writes must go
        // out as that account and into that account's journal, which is neither opened nor made
        // for a token of another account.
        let client = try ForgeConnection.client(settings, access: .readWrite, console: console, control: control)
        let account = try await BotSession.account(of: client)
        guard account == plan.me else {
            throw CommandFailure(
                "the plan was made for \(plan.me), but the token belongs to \(account); apply it with "
                    + "\(plan.me)'s token, or make a new plan with this one", code: .usage)
        }
        let session = try await BotSession.open(
            settings, client: client, account: account, stateUse: .applying, registry: registry, control: control,
            console: console)
        return try await Self.apply(plan, command: "apply", in: session).code
    }

    /// Applies a plan in `session` as `command`, showing each outcome on a terminal, prints the
    /// report and answers the exit code with the report, for `run --report`; schedules are
    /// checked at `frozenNow` when given (`run --now`); `activity` is what the plan was read with,
    /// else it is read again.
    static func apply(
        _ plan: Plan, command: String, in session: BotSession, frozenNow: Date? = nil,
        activity: ActivityHistory? = nil
    ) async throws(CommandFailure) -> (code: BotExitCode, report: ApplyReport) {
        let console = session.console
        let showsProgress = console.isTerminal(.error)
        let (run, report) = try await session.apply(
            plan, command: command, frozenNow: frozenNow, activity: activity
        ) { outcome in
            guard showsProgress else { return }
            console.write("\(outcome.status.rawValue): \(outcome.action) on \(outcome.item)\n", to: .error)
        }
        console.write(ApplyReportRenderer.text(report), to: .output)
        return (try await session.settle(report, plan: plan, run: run), report)
    }
}

import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import RuleEngine
import StateDatabase

/// `gitbay-bot apply PLAN`: applies exactly a saved plan, re-checking each entry first.
struct ApplyCommand: BotCommand {
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
            SharedOptions.format.spec,
            SharedOptions.stateDir.spec,
            SharedOptions.journal.spec,
        ],
        positionals: [planFile]
    )

    static let planFile = PositionalSpec("plan", help: "The plan file (JSON) written by 'plan -o'.")

    let context: CommandContext
    /// The plan file.
    let path: String
    /// The configuration's keys the command line gives.
    let settings: CommandLineSettings

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.context = context
        path = invocation.positional(Self.planFile.name) ?? ""
        settings = try CommandLineSettings(invocation, use: .sendsToken)
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        let console = context.console
        let data = try InputFile.read(path, what: "the plan")
        let plan: Plan
        do {
            plan = try PlanJSON.decodePlan(from: data)
        } catch {
            throw CommandFailure("\(path) is not a \(Plan.currentFormat) plan: \(error)", code: .usage)
        }
        let settings = try ConfigurationLoader.settings(
            self.settings, environment: context.environment, console: console, registry: context.registry)
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
        // out as that account and into that account's journal.
        return try await BotSession.apply(plan, settings: settings, context: context)
    }
}

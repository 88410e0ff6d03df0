import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import StateDatabase
import Suggestions
import YAML

/// What `run`, `plan`, `explain` and `watch` share: load and check the rules, get the forge state
/// from a snapshot or a server (through a ``BotSession``), and evaluate.
struct PlanningRun {
    let invocation: Invocation
    let input: Input
    let context: CommandContext
    var console: any Console { context.console }
    var registry: PluginRegistry { context.registry }

    /// The options every evaluating command shares, read once from its invocation.
    struct Input: Sendable {
        /// The forge-state file to judge offline instead of a server.
        var snapshot: String?
        /// The frozen clock of `--now`.
        var now: Date?
        var format: OutputFormat
        var readAll: Bool
        var noCache: Bool
        var verbose: Bool

        init(_ invocation: Invocation) throws(CommandFailure) {
            snapshot = try SharedOptions.snapshot.value(in: invocation)
            now = try SharedOptions.now.value(in: invocation)
            format = try SharedOptions.format.defaultedValue(in: invocation)
            readAll = invocation.flag(SharedOptions.readAll)
            noCache = invocation.flag(SharedOptions.noCache)
            verbose = invocation.flag(SharedOptions.verbose)
        }
    }

    /// The planning of `invocation`, whose shared options are read (and checked) now.
    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.invocation = invocation
        self.input = try Input(invocation)
        self.context = context
    }

    /// The evaluated plan, with the session that read it (`nil` offline).
    struct Outcome {
        var plan: Plan
        var rules: [Rule]
        var state: ForgeState
        var session: BotSession?
    }

    /// The settings of this invocation: command line, environment, `gitbay-bot.yml`, defaults;
    /// offline (`--snapshot`) no token is sent, so the server's URL is only a name.
    func settings() throws(CommandFailure) -> Settings {
        try ConfigurationLoader.settings(
            invocation: invocation, environment: context.environment, console: console,
            use: input.snapshot == nil ? [.sendsToken, .readsRules] : .readsRules)
    }

    /// A session on the server of `settings`, for this invocation's command.
    func session(
        _ settings: Settings, access: GitbayClientConfiguration.Access, stateUse: BotSession.StateUse
    ) async throws(CommandFailure) -> BotSession {
        try await BotSession.open(
            settings,
            client: try ForgeConnection.client(settings, access: access, console: console, control: context.control),
            stateUse: stateUse, registry: registry, control: context.control, console: console)
    }

    func evaluate(
        access: GitbayClientConfiguration.Access, settings: Settings, stateUse: BotSession.StateUse
    ) async throws(CommandFailure) -> Outcome {
        let rules = try loadRules(settings)
        if let path = input.snapshot {
            let state = try snapshotState(path, settings: settings)
            let evaluator = Evaluator(registry: registry, options: settings.evaluationOptions)
            return Outcome(
                plan: evaluator.plan(rules: rules, state: state, source: "snapshot:\(path)"), rules: rules,
                state: state)
        }
        let session = try await session(settings, access: access, stateUse: stateUse)
        let now = input.now ?? Date()
        do {
            let guards = await session.guards()
            let (state, report) = try await session.read(
                rules, reading: .run(readAll: input.readAll, noCache: input.noCache), guards: guards, now: now)
            if input.verbose {
                verbose(report, client: session.client)
            }
            return Outcome(
                plan: session.plan(rules, state: state, guards: guards), rules: rules, state: state, session: session)
        } catch let error as GitbayError {
            throw CommandFailure(error, server: session.client.configuration.baseURL)
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
    }

    /// The rules and the state `explain` needs for one item: from the snapshot, or read for it.
    func state(for item: ItemReference) async throws(CommandFailure) -> ([Rule], ForgeState, String) {
        let settings = try settings()
        let rules = try loadRules(settings)
        if let path = input.snapshot {
            return (rules, try snapshotState(path, settings: settings), "snapshot:\(path)")
        }
        // A preview's session: the state database's kept feed and journal say who did what to
        // the item, so `quiet` and `label_age` explain as the run judged them.
        let session = try await session(settings, access: .readOnly, stateUse: .planning)
        do {
            let (state, _) = try await session.read(
                rules, reading: .item(item), guards: settings.evaluationOptions, now: input.now ?? Date())
            return (rules, state, session.client.configuration.baseURL.absoluteString)
        } catch let error as GitbayError {
            throw CommandFailure(error, server: session.client.configuration.baseURL)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(error)", code: .failure)
        }
    }

    private func verbose(_ report: ReadPlanner.Report, client: GitbayClient) {
        var text = "reads:\n"
        for step in report.steps { text += "  \(step)\n" }
        let metrics = client.metrics
        text += "requests: \(metrics.reads) reads, \(metrics.retries) retries, "
        text += "\(metrics.rateLimitedResponses) rate-limited, waited \(metrics.totalWait.components.seconds) s\n"
        console.write(text, to: .error)
    }

    /// The rules, checked; any error stops the run with exit 78 after printing every diagnostic.
    func loadRules(_ settings: Settings) throws(CommandFailure) -> [Rule] {
        let paths = settings.rules
        let scope = settings.scope
        let files: [(path: String, bytes: [UInt8])]
        do {
            files = try RuleSet.files(at: paths)
        } catch {
            throw CommandFailure(rulePaths: error, command: invocation.commandPath.last ?? "run")
        }
        let ruleSet = RuleSet.load(
            files: files, registry: registry, scopeOverride: scope, defaultSchedule: settings.schedule)
        if ruleSet.hasErrors {
            for diagnostic in ruleSet.diagnostics {
                console.write(diagnostic.rendered(sources: ruleSet.sources) + "\n", to: .error)
            }
            let errors = ruleSet.diagnostics.filter { $0.severity == .error }.count
            throw CommandFailure(
                "the rules have \(errors) error\(errors == 1 ? "" : "s"); nothing was read or done",
                code: .invalidRules)
        }
        // A misspelt --force-rule would leave the tripwire up with nothing said.
        let names = ruleSet.rules.map(\.name)
        for forced in settings.forcedRules.sorted() where !names.contains(forced) {
            var message = "--force-rule \(forced): no rule has that name"
            if let suggestion = Suggestion.closest(to: forced, among: names) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw CommandFailure(message, code: .usage)
        }
        return ruleSet.rules
    }

    /// The guards of this invocation (`explain` shows the ones that would hold an action back).
    func evaluationOptions() throws(CommandFailure) -> EvaluationOptions {
        try settings().evaluationOptions
    }

    /// The forge-state file at `path` as a run would see it: at `--now`, with the `bots:` of `settings`.
    private func snapshotState(_ path: String, settings: Settings) throws(CommandFailure) -> ForgeState {
        let data = try InputFile.read(path, what: "the snapshot")
        var state: ForgeState
        do {
            state = try ForgeStateFile.load(from: data, registry: registry).forgeState()
        } catch {
            throw CommandFailure(error.message(about: path), code: .usage)
        }
        if let now = input.now { state.now = now }
        state.automation = settings.bots
        return state.writers(settings.writers, because: "offline, the configured writers: decide")
    }

    /// The plan in the requested format.
    func render(_ plan: Plan) -> String {
        switch input.format {
        case .json, .jsonl: return PlanRenderer.json(plan)
        case .markdown: return PlanRenderer.markdown(plan)
        case .text: return PlanRenderer.text(plan, colour: console.isTerminal(.output), width: context.width)
        }
    }
}

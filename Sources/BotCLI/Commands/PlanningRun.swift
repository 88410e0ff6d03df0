import ArgumentParsing
import Foundation
import RuleEngine
import Suggestions
import YAML

/// What `run`, `plan`, `explain` and `watch` share: their options, read once, and the settings,
/// the rules and a snapshot's state as ``BotSession``'s sequence opens them.
struct PlanningRun {
    let input: Input
    let context: CommandContext
    var console: any Console { context.console }
    var registry: PluginRegistry { context.registry }

    /// The options every evaluating command shares, read once from its invocation.
    struct Input: Sendable {
        /// The forge-state file to judge offline instead of a server.
        var snapshot: String?
        /// The frozen clock of `--now`.
        var now: FrozenClock?
        var format: OutputFormat
        var readAll: Bool
        var noCache: Bool
        var verbose: Bool
        /// The configuration's keys the command line gives; offline (`--snapshot`) no token is
        /// sent, so the server's URL is only a name.
        var settings: CommandLineSettings

        init(_ invocation: Invocation) throws(CommandFailure) {
            snapshot = try SharedOptions.snapshot.value(in: invocation)
            now = try SharedOptions.now.value(in: invocation)
            format = try SharedOptions.format.defaultedValue(in: invocation)
            readAll = invocation.flag(SharedOptions.readAll)
            noCache = invocation.flag(SharedOptions.noCache)
            verbose = invocation.flag(SharedOptions.verbose)
            settings = try CommandLineSettings(
                invocation, use: snapshot == nil ? [.sendsToken, .readsRules] : .readsRules)
        }
    }

    /// The planning of `invocation`, whose shared options are read (and checked) now.
    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.input = try Input(invocation)
        self.context = context
    }

    /// The settings of this invocation: command line, environment, `gitbay-bot.yml`, defaults.
    func settings() throws(CommandFailure) -> Settings {
        try ConfigurationLoader.settings(
            input.settings, environment: context.environment, console: console, registry: context.registry)
    }

    /// The rules, checked; any error stops the run with exit 78 after printing every diagnostic.
    func loadRules(_ settings: Settings) throws(CommandFailure) -> [Rule] {
        let paths = settings.rules
        let scope = settings.scope
        let files: [(path: String, bytes: [UInt8])]
        do {
            files = try RuleSet.files(at: paths)
        } catch {
            throw CommandFailure(rulePaths: error, command: input.settings.command)
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
        // A misspelt --force-rule would leave the tripwire up with nothing said. A repository's
        // rule (`owner/name:rule`) is known only once the run reads that repository's file, so
        // its name is taken as given.
        let names = ruleSet.rules.map(\.name)
        for forced in settings.forcedRules.sorted() where !names.contains(forced) && !forced.contains(":") {
            var message = "--force-rule \(forced): no rule has that name"
            if let suggestion = Suggestion.closest(to: forced, among: names) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw CommandFailure(message, code: .usage)
        }
        return ruleSet.rules
    }

    /// The forge-state file at `path` as a run would see it: at `--now`, with the `bots:` of `settings`.
    func snapshotState(_ path: String, settings: Settings) throws(CommandFailure) -> ForgeState {
        let data = try InputFile.read(path, what: "the snapshot")
        var state: ForgeState
        do {
            state = try ForgeStateFile.load(from: data, registry: registry).forgeState()
        } catch {
            throw CommandFailure(error.message(about: path), code: .usage)
        }
        if let now = input.now { state.now = now.date }
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

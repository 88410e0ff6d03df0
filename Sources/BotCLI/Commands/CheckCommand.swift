import ArgumentParsing
import Foundation
import GitbayClient
import GitbayKit
import GitbayPorts
import RuleEngine
import YAML

/// `gitbay-bot check [RULES...]`: compiler-style diagnostics for rule files and the configuration.
///
/// It reads `gitbay-bot.yml` (or `--config FILE`) as every other command does, so a mistake there
/// is found by the check a CI job runs on a change, not by the scheduled run after it, and the
/// rules are checked with what the file gives them: its `rules:`, `scope:` and `schedule:`.
struct CheckCommand: BotCommand {
    static let scope = OptionSpec.value(
        "scope", valueName: "query", help: "Check as if this scope replaced every rule's own (repo: and owner: terms).")
    /// `--allow-insecure-http` as `check` means it: take what the commands given it would take.
    static let insecure = OptionSpec.flag(
        SharedOptions.insecure.name,
        help: "Take a plain http:// url: to a host that is not this machine, as commands given this flag do.")
    static let repository = TypedOption<RepositoryPath>(
        .value(
            "repository", valueName: "owner/name",
            help:
                "Check the files as that repository's own rules (default: .gitbay/bot.yml): acting there only, "
                + "with the configuration's repository_rules:."),
        expected: "a repository, owner/name", parse: { try? RepositoryPath($0) })
    static let base = OptionSpec.repeatable(
        "base", valueName: "owner/name=dir",
        help: "With --repository: read the files extends: names in that repository from this local checkout.")
    static let readBases = OptionSpec.flag(
        "read-bases",
        help:
            "With --repository: read what extends: names from the server (--url, the token) where --base "
            + "gives no checkout.")
    static let format = TypedOption<OutputFormat>(
        .value(
            "format", valueName: "format", help: "How to print the result.", allowedValues: ["text", "json"],
            defaultValue: "text"),
        expected: "text or json", parse: OutputFormat.init(rawValue:))

    static let spec = CommandSpec(
        name: "check",
        abstract: "Check rule files and report every mistake at its line and column.",
        discussion: """
            Reads the configuration as every command does (gitbay-bot.yml in the working directory, or \
            --config) and each rule file (a folder means its *.yml and *.yaml files), and checks the YAML, \
            the configuration's keys and values (refusing whatever would stop 'run', such as plain http:// \
            to another machine without --allow-insecure-http), the rule format, every condition against the \
            fields its item kind offers and every action against the actions it offers, without contacting \
            any server. Exits 0 \
            when the configuration and the rules are valid, and 78 when any error was found or a folder \
            holds no rule files. With --repository it checks a repository's own rules file instead \
            (.gitbay/bot.yml unless files are given) as the bot takes it: each rule acting on that \
            repository only, and none using an action the configuration's repository_rules: forbid lists; \
            the files its extends: names are read from --base checkouts or, with --read-bases, the server.
            """,
        options: [
            format.spec,
            scope,
            repository.spec,
            base,
            readBases,
            SharedOptions.url,
            SharedOptions.tokenFile.spec,
            SharedOptions.config.spec,
            insecure,
        ],
        positionals: [SharedOptions.rules]
    )

    let invocation: Invocation
    let environment: [String: String]
    let console: any Console
    let registry: PluginRegistry
    let format: OutputFormat
    /// A `--scope` that does not parse, reported with the usage line as the parser's own mistakes are.
    let scopeProblem: MessageInfo?
    /// `--repository`: the files are that repository's own rules.
    let repository: RepositoryPath?
    /// `--base`: where the files `extends:` names are read from.
    let fetcher: LocalRuleFileFetcher
    /// `--read-bases`: the files no `--base` gives are read from the server.
    let readsBases: Bool

    init(_ invocation: Invocation, context: CommandContext) throws(CommandFailure) {
        self.invocation = invocation
        environment = context.environment
        console = context.console
        registry = context.registry
        format = try Self.format.defaultedValue(in: invocation)
        repository = try Self.repository.value(in: invocation)
        if repository != nil, invocation.value(Self.scope) != nil {
            throw CommandFailure(
                "--scope and --repository cannot go together: a repository's own rules act on it only", code: .usage)
        }
        fetcher = LocalRuleFileFetcher(checkouts: try Self.checkouts(invocation.values(Self.base.name)))
        readsBases = invocation.flag(Self.readBases)
        if repository == nil, !fetcher.checkouts.isEmpty || readsBases {
            throw CommandFailure(
                "--base and --read-bases read what a repository's file extends: give --repository too", code: .usage)
        }
        if repository != nil, invocation.positionals(SharedOptions.rules.name).count > 1 {
            throw CommandFailure("--repository checks one file, the repository's own", code: .usage)
        }
        do throws(ConditionSyntaxError) {
            if let text = invocation.value(Self.scope) { _ = try RuleScope(parsing: text) }
            scopeProblem = nil
        } catch {
            scopeProblem = MessageInfo(.usageError(invocation.usageError("--scope: \(error.message)")))
        }
    }

    /// `--base` values, `owner/name=dir` each.
    private static func checkouts(_ values: [String]) throws(CommandFailure) -> [RepositoryPath: String] {
        var checkouts: [RepositoryPath: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="),
                let repository = try? RepositoryPath(String(value[..<equals])),
                value.index(after: equals) < value.endIndex
            else {
                throw CommandFailure("--base takes owner/name=DIR, not '\(value)'", code: .usage)
            }
            checkouts[repository] = String(value[value.index(after: equals)...])
        }
        return checkouts
    }

    func run() async throws(CommandFailure) -> BotExitCode {
        if let scopeProblem {
            console.write(scopeProblem.text, to: scopeProblem.stream)
            return .usage
        }
        // Checked as for `run`, so a configuration `check` passes is one `run` takes.
        // With --repository the configuration's own rule files are not read: only what it lets
        // repositories do.
        let settings = try ConfigurationLoader.settings(
            CommandLineSettings(invocation, use: repository == nil ? [.sendsToken, .readsRules] : [.sendsToken]),
            environment: environment, console: console, registry: registry)
        let given = invocation.positionals(SharedOptions.rules.name)
        let paths = repository == nil ? settings.rules : given.isEmpty ? [RuleFileReference.repositoryFile] : given
        // Each path on its own: one that cannot be read is said, and the others are still checked.
        var files: [(path: String, bytes: [UInt8])] = []
        var unreadable: [CheckReport.Unreadable] = []
        for path in paths {
            do {
                files += try RuleSet.files(at: [path])
            } catch {
                let message = CommandFailure(rulePaths: error, command: "check").message
                console.write("error: \(message)\n", to: .error)
                unreadable.append(CheckReport.Unreadable(path: path, message: message))
            }
        }
        guard !files.isEmpty || unreadable.isEmpty || format == .json else { return .invalidRules }
        if repository != nil, files.count > 1 {
            throw CommandFailure(
                "--repository checks one file, the repository's own, and \(paths[0]) holds \(files.count)",
                code: .usage)
        }
        var ruleSet: RuleSet
        if let repository, let file = files.first {
            ruleSet = await RepositoryRuleChain.load(
                file,
                confinement: RepositoryConfinement(
                    repository: repository, forbiddenActions: settings.repositoryRules.forbidden),
                registry: registry, defaultSchedule: settings.schedule,
                fetcher: CheckBaseFetcher(
                    local: fetcher,
                    forge: readsBases
                        ? ForgeRuleFileReader(
                            reader: try ForgeConnection.client(settings, access: .readOnly, console: console)) : nil))
        } else {
            ruleSet = RuleSet.load(
                files: files, registry: registry, scopeOverride: settings.scope, defaultSchedule: settings.schedule)
        }
        // The configuration's warnings first, shown and counted as the rules' are.
        ruleSet.diagnostics = settings.configurationWarnings + ruleSet.diagnostics
        ruleSet.sources.merge(settings.configurationSources) { rule, _ in rule }
        if format == .json {
            let report = CheckReport(ruleSet: ruleSet, files: files.map(\.path), unreadable: unreadable)
            console.write(report.json(), to: .output)
        } else {
            printText(ruleSet, fileCount: files.count, unreadable: unreadable.count)
        }
        return ruleSet.hasErrors || !unreadable.isEmpty ? .invalidRules : .ok
    }

    /// The diagnostics, then one line: the verdict, or the errors counted with the `unreadable`
    /// paths already said.
    private func printText(_ ruleSet: RuleSet, fileCount: Int, unreadable: Int) {
        for diagnostic in ruleSet.diagnostics {
            console.write(diagnostic.rendered(sources: ruleSet.sources) + "\n", to: .error)
        }
        let errors = ruleSet.diagnostics.filter { $0.severity == .error }.count + unreadable
        let warnings = ruleSet.diagnostics.filter { $0.severity == .warning }.count
        let files = fileCount == 1 ? "1 file" : "\(fileCount) files"
        if errors == 0 {
            let rules = ruleSet.rules.count == 1 ? "1 rule" : "\(ruleSet.rules.count) rules"
            let verdict = warnings == 0 ? "no problems found" : warnings == 1 ? "1 warning" : "\(warnings) warnings"
            console.write("\(files), \(rules): \(verdict)\n", to: .output)
        } else {
            console.write("\(files): \(errors == 1 ? "1 error" : "\(errors) errors")\n", to: .error)
        }
    }
}

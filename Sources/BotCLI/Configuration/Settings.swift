import ArgumentParsing
import Foundation
import GitbayClient
import RuleEngine
import YAML

/// Everything a command needs to know about where and how to run, resolved once.
///
/// Each value comes from the first of: the command line, the environment, the configuration file
/// (`gitbay-bot.yml`), the default. Resolving every key in this one function keeps the precedence
/// the same for every command, and lets tests pin it without a server or a file system.
struct Settings: Sendable, Equatable {
    /// Where the API token comes from; a file is read only when a client is built.
    enum TokenSource: Sendable, Equatable {
        /// A file holding the token, and what named it (for messages).
        case file(path: String, origin: String)
        /// `GITBAY_TOKEN`.
        case environment(BearerToken)
        /// Nowhere: commands that need a server stop with advice.
        case missing
    }

    static let defaultURL = "https://gitbay.org"
    static let defaultRateLimit = 120.0
    static let defaultMaxActions = 50
    static let defaultRules = ["rules"]
    static let defaultRetention: TimeInterval = 90 * 86_400

    var url: URL
    var token: TokenSource
    /// The scope that replaces every rule's own, if any.
    var scope: RuleScope?
    /// The server's API requests a minute per account.
    var rateLimit: Double
    var maxActions: Int
    var tripwireShare: Double
    var tripwireFloor: Int
    var force: Bool
    /// The rules let past the tripwire by name (`--force-rule`).
    var forcedRules: Set<String> = []
    /// The JSON-lines journal of earlier versions, imported into the state database once.
    var journal: String
    /// The folder of the state databases, one per server and account.
    var stateDir: String
    /// How long the journal keeps settled writes (unfinished ones stay until finished).
    var retention: TimeInterval
    /// The rolling sweep's period (``RuleEngine/RepositorySweep``); 0 reads every repository each run.
    var sweepPeriod: TimeInterval = RepositorySweep.defaultPeriod
    /// The most read requests a run sends before the sweep's reads that no change asks for wait
    /// for the next runs; `nil` sets no bound.
    var readBudget: Int?
    var rules: [String]
    /// The schedule of every rule that writes none (`schedule:` in the file).
    var schedule: Schedule?
    var allowInsecureHTTP: Bool
    /// The largest answer the client reads from the server.
    var maxResponseSize: ByteCount
    var verbose: Bool
    /// The configuration file the settings were read with, if any.
    var configurationPath: String?
    /// What in the configuration is likely a slip but no mistake (``ConfigurationFile/warnings``),
    /// with the file's bytes by its name to show it: `check` prints it, as it prints the rules'
    /// warnings, and the other commands pass over it, as over those.
    var configurationWarnings: [Diagnostic] = []
    var configurationSources: [String: [UInt8]] = [:]
    /// The accounts whose activity is automation besides the bot's own (`bots:`).
    var bots: Set<String> = []
    /// Who may give commands `allowed: [writers]` where gitbay will not tell (`writers:`).
    var writers: Set<String> = []
    /// How far back a command in a comment still counts (`command_window:`).
    var commandWindow = EvaluationOptions.defaultCommandWindow
    /// The configuration file's `webhook_secret_file`, resolved against its folder, with where it
    /// is written; `watch --webhook-secret-file` comes first.
    var webhookSecretFile: SourcedPath?
    /// Whether runs read repositories' own rules, and what those may do (`repository_rules:`).
    var repositoryRules = RepositoryRulesPolicy()
    /// The most commands one repository's own rules send in a run (``RepositoryRulesSource/share(runCap:)``).
    var repositoryShare: Int?

    /// A file's path with where it was given, for messages.
    struct SourcedPath: Sendable, Hashable {
        var path: String
        var origin: String
    }

    /// The guards of the evaluation, as the engine takes them.
    var evaluationOptions: EvaluationOptions {
        var options = EvaluationOptions(
            maxActions: maxActions, tripwireShare: tripwireShare, tripwireFloor: tripwireFloor, force: force)
        options.repositoryShare = repositoryShare
        options.commandWindow = commandWindow
        options.forcedRules = forcedRules
        return options
    }

    /// Why a server URL as written cannot be used, in words for the place that wrote it.
    struct URLProblem: Error, Equatable {
        var message: String
    }

    /// A server URL as written, judged as the client judges it (``GitbayClient/ServerURLRefusal``):
    /// the one check of `url:`, `--url` and `GITBAY_URL`, made when the settings are read, so
    /// `check` refuses what the client would and a run stops before anything is read.
    static func serverURL(_ text: String, allowingPlainHTTP: Bool) -> Result<URL, URLProblem> {
        guard let url = URL(string: text), url.scheme != nil, let host = url.host, !host.isEmpty else {
            return .failure(URLProblem(message: "'\(text)' is not a URL; write https://gitbay.example"))
        }
        switch ServerURLRefusal(url, allowInsecureHTTP: allowingPlainHTTP) {
        case nil:
            return .success(url)
        case .incomplete:
            return .failure(URLProblem(message: "'\(text)' is not a URL; write https://gitbay.example"))
        case .unsupportedScheme(let scheme):
            return .failure(
                URLProblem(
                    message: "'\(text)' is not a gitbay server: the bot speaks https:// (or http:// to this "
                        + "machine), not \(scheme)://"))
        case .plainHTTP(let host):
            return .failure(
                URLProblem(
                    message: "'\(text)' is plain http:// to \(host), which would send the token unencrypted; "
                        + "write https://, or pass --allow-insecure-http"))
        }
    }

    /// Resolves every setting from the command line (`given`, already checked), the environment
    /// and a decoded configuration.
    ///
    /// - Parameters:
    ///   - file: the configuration, already checked (``ConfigurationFile/problems(allowingPlainHTTP:)`` is empty); an
    ///     empty one when there is no file.
    ///   - fileDirectory: the configuration file's folder, against which its relative paths are
    ///     read, so a configuration means the same wherever the bot is started from.
    /// - Throws: a usage failure (exit 64) for an environment value that is wrong: `GITBAY_URL`,
    ///   which with ``ConfigurationUse/sendsToken`` may be plain `http://` to another machine only
    ///   with `--allow-insecure-http`.
    static func resolve(
        _ given: CommandLineSettings, environment: [String: String], file: ConfigurationFile = ConfigurationFile(),
        fileDirectory: String? = nil, configurationPath: String? = nil
    ) throws(CommandFailure) -> Settings {
        func fromFile(_ path: String) -> String { Self.path(path, writtenIn: fileDirectory) }
        let url: URL
        if let given = given.url {
            url = given
        } else {
            let environmentURL = environment["GITBAY_URL"].flatMap { $0.isEmpty ? nil : $0 }
            switch serverURL(environmentURL ?? file.url?.value ?? defaultURL, allowingPlainHTTP: given.allowsPlainHTTP)
            {
            case .success(let checked):
                url = checked
            case .failure(let problem):
                // A file's `url:` is checked with its other values, at its place (`problems`), so
                // the value here is the environment's, but for a file never checked.
                throw CommandFailure(
                    "\(environmentURL != nil ? "GITBAY_URL" : "url"): \(problem.message)", code: .usage)
            }
        }
        // The file's `scope:` was checked with its other values.
        let scope = given.scope ?? file.scope.flatMap { try? RuleScope(parsing: $0.value) }
        let defaults = EvaluationOptions()
        var settings = Settings(
            url: url, token: token(given, environment: environment, file: file, resolve: fromFile), scope: scope,
            rateLimit: given.rateLimit ?? file.rateLimit?.value ?? defaultRateLimit,
            maxActions: given.maxActions ?? file.maxActions?.value ?? defaultMaxActions,
            tripwireShare: given.tripwireShare ?? file.tripwire?.share?.value ?? defaults.tripwireShare,
            tripwireFloor: given.tripwireFloor ?? file.tripwire?.floor?.value ?? defaults.tripwireFloor,
            force: given.force,
            journal: given.journal ?? file.journal.map { fromFile($0.value) }
                ?? "\(StateLocation.defaultFolder(environment: environment))/journal.jsonl",
            stateDir: given.stateDir ?? file.stateDir.map { fromFile($0.value) }
                ?? StateLocation.defaultFolder(environment: environment),
            retention: file.stateRetention.flatMap { DurationLiteral.seconds($0.value) } ?? defaultRetention,
            rules: !given.rules.isEmpty
                ? given.rules : file.rules.map { $0.value.map { fromFile($0.value) } } ?? defaultRules,
            schedule: try? file.schedule?.schedule().get(),
            allowInsecureHTTP: given.allowInsecureHTTP,
            maxResponseSize: file.responseCap ?? GitbayClientConfiguration.defaultMaxResponseSize,
            verbose: given.verbose,
            configurationPath: configurationPath)
        settings.forcedRules = Set(given.forcedRules)
        settings.bots = Set(file.bots?.map(\.value) ?? [])
        settings.writers = Set(file.writers?.map(\.value) ?? [])
        settings.commandWindow =
            file.commandWindow.flatMap { DurationLiteral.seconds($0.value) } ?? EvaluationOptions.defaultCommandWindow
        settings.sweepPeriod =
            given.sweepPeriod ?? file.sweepPeriod.flatMap { Self.sweepPeriod($0.value) }
            ?? RepositorySweep.defaultPeriod
        settings.webhookSecretFile = file.webhookSecretFile.map {
            SourcedPath(path: fromFile($0.value), origin: "webhook_secret_file at \($0.location)")
        }
        settings.readBudget = given.readBudget ?? file.readBudget?.value
        settings.repositoryRules = RepositoryRulesPolicy(
            reads: file.repositoryRules?.read?.value ?? true,
            previews: file.repositoryRules?.preview?.value ?? true,
            forbidden: Set(file.repositoryRules?.forbid?.map(\.value) ?? []),
            maximumLimit: file.repositoryRules?.limit?.value, defaultSchedule: settings.schedule)
        settings.repositoryShare =
            file.repositoryRules?.share(runCap: settings.maxActions)
            ?? RepositoryRulesSource.defaultShare(runCap: settings.maxActions)
        return settings
    }

    /// The token's source: `--token-file`, `GITBAY_TOKEN`, `GITBAY_TOKEN_FILE`, then `token_file`.
    private static func token(
        _ given: CommandLineSettings, environment: [String: String], file: ConfigurationFile,
        resolve: (String) -> String
    ) -> TokenSource {
        if let path = given.tokenFile {
            return .file(path: path, origin: "--token-file")
        }
        if let value = environment["GITBAY_TOKEN"], !BearerToken(value).isEmpty {
            return .environment(BearerToken(value))
        }
        if let path = environment["GITBAY_TOKEN_FILE"], !path.isEmpty {
            return .file(path: path, origin: "GITBAY_TOKEN_FILE")
        }
        if let path = file.tokenFile {
            return .file(path: resolve(path.value), origin: "token_file at \(path.location)")
        }
        return .missing
    }

    /// A path the configuration file gives, as read from the file's folder (`directory`, `nil`
    /// without a file), so a configuration means the same wherever the bot is started from.
    static func path(_ path: String, writtenIn directory: String?) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return (directory as NSString).appendingPathComponent(path)
    }

    /// A sweep period as written: a duration (`6h`), or `0` for none.
    static func sweepPeriod(_ text: String) -> TimeInterval? {
        text == "0" ? 0 : DurationLiteral.seconds(text)
    }
}

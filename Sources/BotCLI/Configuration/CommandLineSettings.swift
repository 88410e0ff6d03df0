import ArgumentParsing
import Foundation
import RuleEngine

/// The configuration's keys as a command line gives them, read and checked when the command is
/// made, with what the command does with its settings.
///
/// A wrong value (`--max-actions x`, `--scope 'label:'`, `--url ftp://host`) is exit 64 before
/// any file is read or any server asked; ``Settings/resolve(_:environment:file:fileDirectory:configurationPath:)``
/// then takes these typed values first, the environment and `gitbay-bot.yml` after them.
struct CommandLineSettings: Sendable {
    /// The command's name, for messages that say what it needs (`plan`, `run`).
    var command: String
    /// What the command does with its settings.
    var use: ConfigurationUse
    var config: String?
    /// `--url`, checked as the client checks a server's URL.
    var url: URL?
    var tokenFile: String?
    var allowInsecureHTTP: Bool
    var scope: RuleScope?
    var rateLimit: Double?
    var maxActions: Int?
    var tripwireShare: Double?
    var tripwireFloor: Int?
    var force: Bool
    var forcedRules: [String]
    var verbose: Bool
    var stateDir: String?
    var journal: String?
    var sweepPeriod: TimeInterval?
    var readBudget: Int?
    /// The rule files and folders given as positionals; none leaves them to the configuration.
    var rules: [String]

    /// The settings `invocation` gives, for a command that uses them as `use` says.
    init(_ invocation: Invocation, use: ConfigurationUse) throws(CommandFailure) {
        command = invocation.commandPath.last ?? "run"
        self.use = use
        allowInsecureHTTP = invocation.flag(SharedOptions.insecure)
        force = invocation.flag(SharedOptions.force)
        forcedRules = invocation.values(SharedOptions.forceRule.name)
        verbose = invocation.flag(SharedOptions.verbose)
        rules = invocation.positionals(SharedOptions.rules.name)
        config = try SharedOptions.config.value(in: invocation)
        tokenFile = try SharedOptions.tokenFile.value(in: invocation)
        stateDir = try SharedOptions.stateDir.value(in: invocation)
        journal = try SharedOptions.journal.value(in: invocation)
        // Checked in the order the settings were always checked, so the first mistake is said.
        if let text = invocation.value(SharedOptions.url) {
            switch Settings.serverURL(text, allowingPlainHTTP: allowsPlainHTTP) {
            case .success(let checked): url = checked
            case .failure(let problem): throw CommandFailure("--url: \(problem.message)", code: .usage)
            }
        }
        scope = try SharedOptions.scope.value(in: invocation)
        rateLimit = try SharedOptions.rateLimit.value(in: invocation)
        maxActions = try SharedOptions.maxActions.value(in: invocation)
        tripwireShare = try SharedOptions.tripwireShare.value(in: invocation)
        tripwireFloor = try SharedOptions.tripwireFloor.value(in: invocation)
        sweepPeriod = try SharedOptions.sweepPeriod.value(in: invocation)
        readBudget = try SharedOptions.readBudget.value(in: invocation)
    }

    /// Whether plain `http://` to another machine is taken: always for a command that never
    /// sends the token, else only with `--allow-insecure-http`.
    var allowsPlainHTTP: Bool {
        !use.contains(.sendsToken) || allowInsecureHTTP
    }
}

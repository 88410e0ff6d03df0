import GitbayClient
import RuleEngine
import YAML

/// `gitbay-bot.yml` as written, decoded strictly so a typo is an error at its line and column.
///
/// Every value keeps its place (``Located``) so a value the YAML types accept but the bot does
/// not (a negative `max_actions`) is reported where it is written too. Each key is read on its
/// own, so a file with many mistakes is reported whole: `check` is run once, not once a mistake.
struct ConfigurationFile: Decodable, Sendable {
    /// Listed so the "did you mean" of an unknown key knows every real key.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
        case tokenFile = "token_file"
        case scope
        case rateLimit = "rate_limit"
        case maxActions = "max_actions"
        case tripwire
        case journal
        case stateDir = "state_dir"
        case stateRetention = "state_retention"
        case sweepPeriod = "sweep_period"
        case readBudget = "read_budget"
        case rules
        case maxResponseSize = "max_response_size"
        case bots
        case writers
        case commandWindow = "command_window"
        case schedule
        case webhookSecretFile = "webhook_secret_file"
        case repositoryRules = "repository_rules"
    }

    /// The tripwire's settings (`tripwire: {share, floor}`).
    struct Tripwire: Decodable, Sendable {
        /// Listed so the "did you mean" of an unknown key knows every real key.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case share, floor
        }

        var share: Located<Double>?
        var floor: Located<Int>?
        /// The values of the wrong type, each at its place.
        var decodingProblems: [Diagnostic] = []

        /// Reads each key on its own, gathering the wrong ones.
        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            share = try keys.decodeIfPresent(forKey: .share, gathering: &decodingProblems)
            floor = try keys.decodeIfPresent(forKey: .floor, gathering: &decodingProblems)
        }
    }

    var url: Located<String>?
    var tokenFile: Located<String>?
    var scope: Located<String>?
    var rateLimit: Located<Double>?
    var maxActions: Located<Int>?
    var tripwire: Tripwire?
    var journal: Located<String>?
    var stateDir: Located<String>?
    var stateRetention: Located<String>?
    /// How often each repository is read when nothing says it changed (``RuleEngine/RepositorySweep``).
    var sweepPeriod: Located<String>?
    /// The most read requests a run sends before the sweep's optional reads wait (``Settings/readBudget``).
    var readBudget: Located<Int>?
    /// The rule files and folders, with where the list is (an empty one is an error at its place).
    var rules: Located<[Located<String>]>?
    /// Bytes (`33554432`) or a size in binary units (`32MiB`); see ``responseCap``.
    var maxResponseSize: Located<String>?
    /// The accounts whose activity is automation (CI, dependency bots), besides the bot's own.
    var bots: [Located<String>]?
    /// Who may give commands `allowed: [writers]` where gitbay will not tell the bot who writes.
    var writers: [Located<String>]?
    /// How far back a command in a comment still counts (``RuleEngine/EvaluationOptions/commandWindow``).
    var commandWindow: Located<String>?
    /// The schedule of every rule that writes none.
    var schedule: ScheduleSource?
    /// The file holding the secret gitbay signs webhook deliveries with (`watch --listen`).
    var webhookSecretFile: Located<String>?
    /// What repositories' own rules files may do.
    var repositoryRules: RepositoryRulesSource?
    /// The values of the wrong type (a word where a number goes), each at its place; the key is
    /// then read as if absent, and the others still are.
    var decodingProblems: [Diagnostic] = []

    /// The smallest `max_response_size` taken: a bare `32` is surely 32 MiB misspelt, not 32 bytes.
    static let smallestResponseCap = ByteCount.kibibytes(1)

    /// `max_response_size` as a size, or nil when it is absent or unusable (see ``problems(allowingPlainHTTP:)``).
    var responseCap: ByteCount? {
        maxResponseSize.flatMap { ByteCount(parsing: $0.value) }.flatMap { $0 >= Self.smallestResponseCap ? $0 : nil }
    }

    /// The entries of a `bots:` list that cannot be gitbay account names, each at its place: an
    /// `@` or a space is a mistake that would silently match nobody.
    static func problems(ofBots bots: [Located<String>], key: String = "bots") -> [Diagnostic] {
        bots.filter { account in
            account.value.isEmpty
                || !account.value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        }.map { account in
            .error(
                "\(key) lists gitbay account names (letters, digits, '-', '_', '.'), not '\(account.value)'",
                at: account.location)
        }
    }

    /// An empty configuration, as when no file is found.
    init() {}

    /// Reads each key on its own, gathering the wrong ones in ``decodingProblems``.
    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        var gathered: [Diagnostic] = []
        url = try keys.decodeIfPresent(forKey: .url, gathering: &gathered)
        tokenFile = try keys.decodeIfPresent(forKey: .tokenFile, gathering: &gathered)
        scope = try keys.decodeIfPresent(forKey: .scope, gathering: &gathered)
        rateLimit = try keys.decodeIfPresent(forKey: .rateLimit, gathering: &gathered)
        maxActions = try keys.decodeIfPresent(forKey: .maxActions, gathering: &gathered)
        tripwire = try keys.decodeIfPresent(forKey: .tripwire, gathering: &gathered)
        journal = try keys.decodeIfPresent(forKey: .journal, gathering: &gathered)
        stateDir = try keys.decodeIfPresent(forKey: .stateDir, gathering: &gathered)
        stateRetention = try keys.decodeIfPresent(forKey: .stateRetention, gathering: &gathered)
        sweepPeriod = try keys.decodeIfPresent(forKey: .sweepPeriod, gathering: &gathered)
        readBudget = try keys.decodeIfPresent(forKey: .readBudget, gathering: &gathered)
        rules = try keys.decodeIfPresent(forKey: .rules, gathering: &gathered)
        maxResponseSize = try keys.decodeIfPresent(forKey: .maxResponseSize, gathering: &gathered)
        bots = try keys.decodeIfPresent(forKey: .bots, gathering: &gathered)
        writers = try keys.decodeIfPresent(forKey: .writers, gathering: &gathered)
        commandWindow = try keys.decodeIfPresent(forKey: .commandWindow, gathering: &gathered)
        schedule = try keys.decodeIfPresent(forKey: .schedule, gathering: &gathered)
        webhookSecretFile = try keys.decodeIfPresent(forKey: .webhookSecretFile, gathering: &gathered)
        repositoryRules = try keys.decodeIfPresent(forKey: .repositoryRules, gathering: &gathered)
        decodingProblems = gathered
    }

    /// What is likely a slip but changes nothing the bot does, each at its place: a day named
    /// twice in `schedule:`, hour ranges that overlap (``RuleEngine/ScheduleSource/warnings``).
    var warnings: [Diagnostic] {
        schedule?.warnings ?? []
    }

    /// Every value the bot cannot use, each at its place: those of the wrong type, and those the
    /// YAML types accept but the bot does not.
    ///
    /// - Parameter allowingPlainHTTP: whether `url:` may be plain `http://` to another machine:
    ///   for a command that never sends the token, or with `--allow-insecure-http`.
    func problems(allowingPlainHTTP: Bool) -> [Diagnostic] {
        var problems =
            decodingProblems + (tripwire?.decodingProblems ?? []) + (repositoryRules?.decodingProblems ?? [])
        if let url, case .failure(let problem) = Settings.serverURL(url.value, allowingPlainHTTP: allowingPlainHTTP) {
            problems.append(.error(problem.message, at: url.location))
        }
        // As `--rate-limit` judges it: `.nan` is no number of requests, though `< 1` lets it by.
        if let rateLimit, !(rateLimit.value >= 1) {
            problems.append(.error("rate_limit is requests a minute and must be at least 1", at: rateLimit.location))
        }
        if let maxActions, maxActions.value < 0 {
            problems.append(.error("max_actions must be 0 or more", at: maxActions.location))
        }
        if let share = tripwire?.share, !(0...1).contains(share.value) {
            problems.append(.error("tripwire.share is a share of items, from 0 to 1", at: share.location))
        }
        if let floor = tripwire?.floor, floor.value < 0 {
            problems.append(.error("tripwire.floor must be 0 or more", at: floor.location))
        }
        if let maxResponseSize, responseCap == nil {
            problems.append(
                .error(
                    "max_response_size is a size of at least \(Self.smallestResponseCap), in bytes or "
                        + "in KiB, MiB or GiB such as 32MiB, not '\(maxResponseSize.value)'",
                    at: maxResponseSize.location))
        }
        if let scope {
            do {
                _ = try RuleScope(parsing: scope.value)
            } catch {
                problems.append(.error("scope: \(error.message)", at: scope.location))
            }
        }
        if let stateRetention, (DurationLiteral.seconds(stateRetention.value) ?? 0) < 86_400 {
            problems.append(
                .error("state_retention is a duration of a day or more, such as 90d", at: stateRetention.location))
        }
        if let sweepPeriod, Settings.sweepPeriod(sweepPeriod.value) == nil {
            problems.append(
                .error(
                    "sweep_period is a duration such as 6h, or 0 to read every repository each run",
                    at: sweepPeriod.location))
        }
        if let readBudget, readBudget.value < 1 {
            problems.append(.error("read_budget is a number of requests of at least 1", at: readBudget.location))
        }
        if case .failure(let error) = schedule?.schedule() {
            problems += error.diagnostics
        }
        for path in [tokenFile, journal, stateDir, webhookSecretFile].compactMap(\.self) + (rules?.value ?? [])
        where path.value.isEmpty {
            problems.append(.error("a path may not be empty", at: path.location))
        }
        problems += Self.problems(ofBots: bots ?? [])
        problems += Self.problems(ofBots: writers ?? [], key: "writers")
        if let commandWindow, (DurationLiteral.seconds(commandWindow.value) ?? 0) < 60 {
            problems.append(
                .error("command_window is a duration of a minute or more, such as 3d", at: commandWindow.location))
        }
        return problems
    }
}

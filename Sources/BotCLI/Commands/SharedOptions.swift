import ArgumentParsing
import Foundation
import RuleEngine

/// Options several commands share, declared once.
enum SharedOptions {
    static let format = TypedOption<OutputFormat>(
        .value(
            "format", valueName: "format", help: "How to print the result.",
            allowedValues: ["text", "json", "markdown"], defaultValue: "text"),
        expected: "text, json or markdown", parse: OutputFormat.init(rawValue:))
    static let snapshot = TypedOption<String>(
        .value(
            "snapshot", valueName: "file",
            help: "Evaluate offline against a forge-state file instead of a server (docs/forge-state.md)."))
    static let now = TypedOption<FrozenClock>(
        .value(
            "now", valueName: "time",
            help: "Freeze the clock at this time (2026-11-29 or RFC 3339); with --snapshot it defaults to the file's."),
        expected: "2026-11-29 or an RFC 3339 time",
        parse: { text in TimeLiteral.date(text).map { FrozenClock(date: $0, written: text) } })
    static let url = OptionSpec.value(
        "url", valueName: "url", help: "The gitbay server (default: $GITBAY_URL, then url:, then https://gitbay.org).")
    static let tokenFile = TypedOption<String>(
        .value(
            "token-file", valueName: "file",
            help: "Read the API token from this file (default: $GITBAY_TOKEN, $GITBAY_TOKEN_FILE, token_file:)."))
    static let insecure = OptionSpec.flag(
        "allow-insecure-http", help: "Allow plain http:// to a host that is not this machine (the token goes in clear)."
    )
    static let scope = TypedOption<RuleScope>(
        .value("scope", valueName: "query", help: "Replace every rule's scope with these repo: and owner: terms."),
        parse: scope(parsing:))
    static let maxActions = TypedOption<Int>(
        .value(
            "max-actions", valueName: "n", help: "The most commands one run may send (default: max_actions:, else 50)."),
        expected: "a whole number", parse: { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
    static let force = OptionSpec.flag(
        "force", help: "Let rules past the tripwire that holds back a rule acting on a large share of its items.")
    static let forceRule = OptionSpec.repeatable(
        "force-rule", valueName: "rule",
        help: "Let this rule past the tripwire, the others still guarded (repeat it for more rules).")
    static let readAll = OptionSpec.flag(
        "read-all",
        help: "Read the details of every item a rule may match, even those a guard holds back (for audits).")
    static let noCache = OptionSpec.flag(
        "no-cache", help: "Read every detail afresh instead of from the read cache (which is still refreshed).")
    static let verbose = OptionSpec.flag("verbose", short: "v", help: "Print the reads made and the requests spent.")
    static let rateLimit = TypedOption<Double>(
        .value(
            "rate-limit", valueName: "n",
            help: "The server's API requests a minute per account (default: rate_limit:, else 120; writes get a tenth)."
        ),
        expected: "a number of requests a minute", parse: { Double($0).flatMap { $0 >= 1 ? $0 : nil } })
    static let tripwireShare = TypedOption<Double>(
        .value(
            "tripwire-share", valueName: "share",
            help: "Hold back a rule acting on more than this share of its items (default: tripwire.share:, else 0.25)."),
        expected: "a share from 0 to 1", parse: { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } })
    static let tripwireFloor = TypedOption<Int>(
        .value(
            "tripwire-floor", valueName: "n",
            help: "...and on more than this many items (default: tripwire.floor:, else 10)."),
        expected: "a whole number", parse: { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
    static let config = TypedOption<String>(
        .value(
            "config", valueName: "file",
            help: "Read settings from this file (default: gitbay-bot.yml in the working directory, if present)."))
    static let stateDir = TypedOption<String>(
        .value(
            "state-dir", valueName: "dir",
            help: "The folder of the state databases (default: state_dir:, else $XDG_STATE_HOME/gitbay-bot)."))
    static let journal = TypedOption<String>(
        .value(
            "journal", valueName: "file",
            help:
                "An older version's journal.jsonl to import once (default: journal:, else journal.jsonl in --state-dir's "
                + "default folder)."))
    static let sweepPeriod = TypedOption<TimeInterval>(
        .value(
            "sweep-period", valueName: "duration",
            help: "Read each repository's builds, milestones and dependency state at least this "
                + "often when nothing says they changed, a share each run (default: sweep_period:, else 6h; 0 reads "
                + "every one each run)."),
        expected: "a duration such as 6h, or 0", parse: { Settings.sweepPeriod($0).flatMap { $0 >= 0 ? $0 : nil } })
    static let readBudget = TypedOption<Int>(
        .value(
            "read-budget", valueName: "n",
            help: "Send at most this many read requests before the sweep's reads that no change asks for wait for "
                + "the next runs; the plan says what they left (default: read_budget:, else none)."),
        expected: "a number of requests of at least 1", parse: { Int($0).flatMap { $0 >= 1 ? $0 : nil } })
    static let report = TypedOption<String>(
        .value("report", valueName: "file", help: "Also write a Markdown report (for CI job summaries) to this file."))
    static let rules = PositionalSpec(
        "rules", help: "Rule files or folders (default: rules: in the configuration, else rules/).", optional: true,
        repeating: true)

    /// A `--scope` as written, or the usage failure that says what is wrong with it.
    static func scope(parsing text: String) throws(CommandFailure) -> RuleScope {
        do throws(ConditionSyntaxError) {
            return try RuleScope(parsing: text)
        } catch {
            throw CommandFailure("--scope: \(error.message)", code: .usage)
        }
    }

    /// The options of every command that evaluates rules.
    static let evaluation: [OptionSpec] = [
        config.spec, format.spec, snapshot.spec, now.spec, url, tokenFile.spec, insecure, rateLimit.spec, scope.spec,
        maxActions.spec, tripwireShare.spec, tripwireFloor.spec, force, forceRule, verbose,
    ]

    /// The options of every command that talks to a server.
    static let connection: [OptionSpec] = [config.spec, url, tokenFile.spec, insecure, rateLimit.spec, verbose]
}

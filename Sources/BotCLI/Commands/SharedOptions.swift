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
    static let now = TypedOption<Date>(
        .value(
            "now", valueName: "time",
            help: "Freeze the clock at this time (2026-11-29 or RFC 3339); with --snapshot it defaults to the file's."),
        expected: "2026-11-29 or an RFC 3339 time", parse: TimeLiteral.date)
    static let url = OptionSpec.value(
        "url", valueName: "url", help: "The gitbay server (default: $GITBAY_URL, then url:, then https://gitbay.org).")
    static let tokenFile = OptionSpec.value(
        "token-file", valueName: "file",
        help: "Read the API token from this file (default: $GITBAY_TOKEN, $GITBAY_TOKEN_FILE, token_file:).")
    static let insecure = OptionSpec.flag(
        "allow-insecure-http", help: "Allow plain http:// to a host that is not this machine (the token goes in clear)."
    )
    static let scope = OptionSpec.value(
        "scope", valueName: "query", help: "Replace every rule's scope with these repo: and owner: terms.")
    static let maxActions = OptionSpec.value(
        "max-actions", valueName: "n", help: "The most commands one run may send (default: max_actions:, else 50).")
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
    static let rateLimit = OptionSpec.value(
        "rate-limit", valueName: "n",
        help: "The server's API requests a minute per account (default: rate_limit:, else 120; writes get a tenth).")
    static let tripwireShare = OptionSpec.value(
        "tripwire-share", valueName: "share",
        help: "Hold back a rule acting on more than this share of its items (default: tripwire.share:, else 0.25).")
    static let tripwireFloor = OptionSpec.value(
        "tripwire-floor", valueName: "n",
        help: "...and on more than this many items (default: tripwire.floor:, else 10).")
    static let config = OptionSpec.value(
        "config", valueName: "file",
        help: "Read settings from this file (default: gitbay-bot.yml in the working directory, if present).")
    static let stateDir = OptionSpec.value(
        "state-dir", valueName: "dir",
        help: "The folder of the state databases (default: state_dir:, else $XDG_STATE_HOME/gitbay-bot).")
    static let journal = OptionSpec.value(
        "journal", valueName: "file",
        help: "An older version's journal.jsonl to import once (default: journal:, else journal.jsonl in --state-dir's "
            + "default folder).")
    static let sweepPeriod = OptionSpec.value(
        "sweep-period", valueName: "duration",
        help: "Read each repository's builds, milestones and dependency state at least this "
            + "often when nothing says they changed, a share each run (default: sweep_period:, else 6h; 0 reads every "
            + "one each run).")
    static let readBudget = OptionSpec.value(
        "read-budget", valueName: "n",
        help: "Send at most this many read requests before the sweep's reads that no change asks for wait for "
            + "the next runs; the plan says what they left (default: read_budget:, else none).")
    static let report = TypedOption<String>(
        .value("report", valueName: "file", help: "Also write a Markdown report (for CI job summaries) to this file."))
    static let rules = PositionalSpec(
        "rules", help: "Rule files or folders (default: rules: in the configuration, else rules/).", optional: true,
        repeating: true)

    /// The options of every command that evaluates rules.
    static let evaluation: [OptionSpec] = [
        config, format.spec, snapshot.spec, now.spec, url, tokenFile, insecure, rateLimit, scope, maxActions,
        tripwireShare,
        tripwireFloor, force, forceRule, verbose,
    ]

    /// The options of every command that talks to a server.
    static let connection: [OptionSpec] = [config, url, tokenFile, insecure, rateLimit, verbose]
}

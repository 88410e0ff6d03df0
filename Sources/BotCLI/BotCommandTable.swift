import ArgumentParsing
import GitbayClient

/// The bot's commands as data: help, usage, errors and completion scripts are generated from it.
public enum BotCommandTable {
    static let format = OptionSpec.value(
        "format", valueName: "format", help: "How to print the result.", allowedValues: ["text", "json"],
        defaultValue: "text")

    static let check = CommandSpec(
        name: "check",
        abstract: "Check rule files and report every mistake at its line and column.",
        discussion: """
            Reads the configuration as every command does (gitbay-bot.yml in the working directory, or \
            --config) and each rule file (a folder means its *.yml and *.yaml files), and checks the YAML, \
            the configuration's keys, the rule format, every condition against the fields its item kind \
            offers and every action against the actions it offers, without contacting any server. Exits 0 \
            when the configuration and the rules are valid, and 78 when any error was found or a folder \
            holds no rule files.
            """,
        options: [
            format,
            .value(
                "scope", valueName: "query",
                help: "Check as if this scope replaced every rule's own (repo: and owner: terms)."),
            SharedOptions.config,
        ],
        positionals: [SharedOptions.rules]
    )

    static let schema = CommandSpec(
        name: "schema",
        abstract: "Print a JSON Schema of the rule format, for editors.",
        discussion: """
            The schema lists every item kind, field and action the installed plugins offer, so an \
            editor with a YAML language server completes and validates rules as they are typed.
            """
    )

    /// The root command.
    public static let root = CommandSpec(
        name: "gitbay-bot",
        abstract: "Rule-driven automation for the gitbay forge.",
        discussion: """
            Exit codes: 0 done or nothing to do; 1 failure; 2 actions pending (plan --detailed-exitcode); \
            3 incomplete (a guard, a limit, or some actions failed); 64 usage; 69 the server cannot be \
            reached; 74 a file or the state database cannot be written; 75 rate-limited or busy; 78 invalid \
            rules; 129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM.
            """,
        version: BotVersion.current,
        subcommands: [
            RunCommand.spec, PlanCommand.spec, ApplyCommand.spec, ExplainCommand.spec, HistoryCommand.spec,
            WatchCommand.spec, check, schema, SnapshotCommand.spec, TestCommand.spec,
        ]
    )
}

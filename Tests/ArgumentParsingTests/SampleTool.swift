import ArgumentParsing

/// The command table the suites parse against: a small forge tool with the shapes the bot's table will use.
///
/// It has global options (a flag and an enumerated value), three subcommands, an alias, an inversion,
/// repeatable and required options, single, optional and repeating positionals, and a nested group with a
/// default subcommand, so every rule of the parser has something to bite on.
enum SampleTool {
    /// The root command.
    static let root = CommandSpec(
        name: "forge",
        abstract: "Drive a forge from the command line.",
        discussion: "Reads the forge named by the FORGE_URL environment variable.",
        version: "1.2.0",
        options: [
            .flag("verbose", short: "v", help: "Print more detail.", inherited: true),
            .value(
                "color", valueName: "when", help: "When to use colour.", allowedValues: ["auto", "always", "never"],
                defaultValue: "auto", inherited: true),
        ],
        subcommands: [sync, label, report]
    )

    /// A leaf command with an alias, a repeatable option and an inversion.
    static let sync = CommandSpec(
        name: "sync",
        aliases: ["s"],
        abstract: "Fetch issues and merge requests.",
        options: [
            .repeatable("repo", short: "r", valueName: "owner/name", help: "A repository to sync (repeatable)."),
            .value(
                "since", valueName: "date-or-duration",
                help: "Only fetch items updated after this date, or within this duration."),
            .inversion("prune", defaultValue: true, help: "Remove items deleted upstream."),
            .flag("trace", help: "Log every request.", hidden: true),
        ]
    )

    /// A leaf command with positionals, an enumerated option with a default and a short flag.
    static let label = CommandSpec(
        name: "label",
        abstract: "Add or remove labels on an issue.",
        options: [
            .value(
                "mode", help: "How to apply the labels.", allowedValues: ["add", "remove", "set"],
                defaultValue: "add"),
            .flag("dry-run", short: "n", help: "Print what would change without changing it."),
        ],
        positionals: [
            PositionalSpec("issue", help: "The issue number."),
            PositionalSpec("labels", help: "The labels to apply.", repeating: true),
        ]
    )

    /// A group with a default subcommand.
    static let report = CommandSpec(
        name: "report",
        abstract: "Summarise the state of a repository.",
        subcommands: [stale, builds],
        defaultSubcommand: "stale"
    )

    /// The default subcommand of `report`.
    static let stale = CommandSpec(
        name: "stale",
        abstract: "List issues nobody has touched for a while.",
        options: [
            .value("days", help: "How many idle days make an issue stale.", defaultValue: "30"),
            .value(
                "format", short: "f", help: "The output format.", allowedValues: ["text", "json", "markdown"],
                defaultValue: "text"),
        ],
        positionals: [PositionalSpec("repo", help: "The repository, as owner/name.", optional: true)]
    )

    /// A command with a required option and an enumerated repeatable option with many values.
    static let builds = CommandSpec(
        name: "builds",
        abstract: "List builds by status.",
        version: "0.9.0-beta",
        options: [
            .repeatable(
                "status", help: "Only builds in this status.",
                allowedValues: ["pending", "running", "passed", "failed", "canceled", "skipped"]),
            .value("output", short: "o", valueName: "file", help: "Where to write the report.", required: true),
        ]
    )
}

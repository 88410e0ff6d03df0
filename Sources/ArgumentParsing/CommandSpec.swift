/// One command of a tool, declared as data.
///
/// The whole command line (parsing, help, errors and completion scripts) is generated from a tree of these
/// values, so the bot's command table is a literal that other modules build and tests can inspect.
public struct CommandSpec: Equatable, Sendable {
    /// The word that selects this command (for the root: the tool's name as users type it).
    public var name: String
    /// Other words that select this command, listed after the name in help.
    public var aliases: [String]
    /// The one-line summary shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    public var abstract: String
    /// Longer text shown under the abstract in this command's own help.
    public var discussion: String
    /// The version string; when set (here or on an ancestor) the command accepts `--version`.
    public var version: String?
    /// The options, in the order help lists them.
    public var options: [OptionSpec]
    /// The positional arguments, in the order they are matched.
    public var positionals: [PositionalSpec]
    /// The commands below this one.
    public var subcommands: [CommandSpec]
    /// The name of the subcommand that runs when no subcommand is named.
    public var defaultSubcommand: String?

    /// Creates a command; everything but the name is optional so tables stay short.
    public init(
        name: String,
        aliases: [String] = [],
        abstract: String = "",
        discussion: String = "",
        version: String? = nil,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
    }

    /// The subcommand selected by `word`, by name or alias.
    func subcommand(named word: String) -> CommandSpec? {
        subcommands.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// The subcommand that runs when none is named, if one is declared.
    var defaultCommand: CommandSpec? {
        defaultSubcommand.flatMap { name in subcommands.first { $0.name == name } }
    }
}

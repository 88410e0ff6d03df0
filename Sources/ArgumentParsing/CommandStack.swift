/// The chain of commands from the root to the one being parsed, and what that chain accepts.
///
/// Parsing, help, usage and completion all ask the same questions (which options are visible here, what
/// is the synopsis), so the answers live in one place.
struct CommandStack: Equatable, Sendable {
    /// What an option name resolves to.
    enum Match: Equatable, Sendable {
        /// A declared option; `inverted` when spelled `--no-name`.
        case declared(OptionSpec, inverted: Bool)
        /// The built-in `-h` / `--help`.
        case help
        /// The built-in `--version`.
        case version
    }

    /// The commands, root first.
    private(set) var commands: [CommandSpec]

    /// Starts a stack at the root command.
    init(root: CommandSpec) {
        commands = [root]
    }

    /// The command being parsed.
    var innermost: CommandSpec { commands[commands.count - 1] }

    /// Whether the stack holds just the root.
    var isRoot: Bool { commands.count == 1 }

    /// The command names, root first.
    var names: [String] { commands.map(\.name) }

    /// The path as users type it: `tool sub`.
    var path: String { names.joined(separator: " ") }

    /// Descends into a subcommand.
    mutating func push(_ command: CommandSpec) {
        commands.append(command)
    }

    /// This stack and the stack of every command below it, depth first, parents before children.
    var subtree: [CommandStack] {
        [self]
            + innermost.subcommands.flatMap { subcommand in
                var child = self
                child.push(subcommand)
                return child.subtree
            }
    }

    /// A shell-safe identifier for this command, for completion-script function names: `_tool_sub`.
    var functionName: String {
        "_" + names.joined(separator: "_").map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// Every spelling of the declared options and built-ins, as completion scripts offer them.
    var completionWords: [String] {
        var words: [String] = []
        for option in visibleOptions {
            words.append("--\(option.name)")
            if let short = option.shortName {
                words.append("-\(short)")
            }
            if let inverted = option.invertedName {
                words.append("--\(inverted)")
            }
        }
        if version != nil {
            words.append("--version")
        }
        return words + ["-h", "--help"]
    }

    /// The version the innermost command reports: its own, else the nearest ancestor's.
    var version: String? {
        commands.last { $0.version != nil }?.version
    }

    /// The declared options this command accepts: inherited ones (outermost first), then its own.
    var options: [OptionSpec] {
        commands.dropLast().flatMap { $0.options.filter(\.isInherited) } + innermost.options
    }

    /// The declared options shown in help, usage and completion scripts.
    var visibleOptions: [OptionSpec] {
        options.filter { !$0.isHidden }
    }

    /// Resolves a long option name (without dashes).
    func match(long name: String) -> Match? {
        if let option = options.first(where: { $0.name == name }) {
            return .declared(option, inverted: false)
        }
        if let option = options.first(where: { $0.invertedName == name }) {
            return .declared(option, inverted: true)
        }
        if name == "help" {
            return .help
        }
        if name == "version", version != nil {
            return .version
        }
        return nil
    }

    /// Resolves a short option letter.
    func match(short letter: Character) -> Match? {
        if let option = options.first(where: { $0.shortName == letter }) {
            return .declared(option, inverted: false)
        }
        return letter == "h" ? .help : nil
    }

    /// The long spellings users may have meant, for "Did you mean" suggestions.
    var suggestibleLongNames: [String] {
        visibleOptions.flatMap { [$0.name] + ($0.invertedName.map { [$0] } ?? []) }
            + (version == nil ? ["help"] : ["version", "help"])
    }

    /// The usage synopsis: `tool sub [--flag] --name <name> <arg> ...`, with `<subcommand>` when it has some.
    ///
    /// As in argument-parser, more than twelve options collapse into `[<options>]` followed by the required
    /// ones, so the line stays readable.
    var synopsis: String {
        var parts = [path]
        let optionParts = visibleOptions.map { ($0.isRequired, Self.synopsis(of: $0)) }
        let positionalParts = innermost.positionals.map(Self.synopsis(of:))
        if optionParts.count + positionalParts.count > 12 {
            parts.append("[<options>]")
            parts += optionParts.filter(\.0).map(\.1)
        } else {
            parts += optionParts.map(\.1)
        }
        parts += positionalParts
        if !innermost.subcommands.isEmpty {
            parts.append("<subcommand>")
        }
        return parts.joined(separator: " ")
    }

    /// One option's part of the synopsis.
    static func synopsis(of option: OptionSpec) -> String {
        switch option.kind {
        case .flag:
            return "[--\(option.name)]"
        case .inversion:
            return "[--\(option.name)|--no-\(option.name)]"
        case .value:
            let core = "--\(option.name) <\(option.valueName)>"
            return option.isRequired ? core : "[\(core)]"
        case .repeatableValue:
            return "[--\(option.name) <\(option.valueName)> ...]"
        }
    }

    /// One positional argument's part of the synopsis.
    static func synopsis(of positional: PositionalSpec) -> String {
        var core = "<\(positional.name)>"
        if positional.isRepeating {
            core += " ..."
        }
        return positional.isOptional ? "[\(core)]" : core
    }
}

/// The first pass over the tokens: which command runs, and whether a built-in request overrides running it.
///
/// Subcommand names are found before options are matched, so options may sit anywhere and are matched
/// against the innermost command (plus inherited options), as argument-parser does.
struct PathResolution: Equatable, Sendable {
    /// The command to parse for, after descending into default subcommands.
    var stack: CommandStack
    /// The command the user named (no implicit default subcommand): the one whose help `-h` shows.
    var namedStack: CommandStack
    /// Positions in the token list used up as subcommand names, `help`, or the completion shell.
    var consumed: Set<Int> = []
    /// Whether `-h`, `--help` or the `help` subcommand appeared.
    var helpRequested = false
    /// Whether the `help` subcommand (rather than a flag) asked for help, so stray values are errors.
    var helpSubcommand = false
    /// Set when `--generate-completion-script` appeared at the root: the shell given, or nil for `$SHELL`.
    var completionRequest: String?? = nil

    /// Resolves the command path for `tokens` under `root`.
    init(tokens: [ArgumentToken], root: CommandSpec) {
        stack = CommandStack(root: root)
        namedStack = stack
        var descending = true
        var position = 0
        scan: while position < tokens.count {
            switch tokens[position].kind {
            case .terminator:
                break scan
            case .long(let name, let attached):
                if name == "generate-completion-script", stack.isRoot {
                    if let attached {
                        completionRequest = .some(attached)
                    } else if let shell = Self.value(after: position, in: tokens) {
                        completionRequest = .some(shell)
                        consumed.insert(position + 1)
                        position += 1
                    } else {
                        completionRequest = .some(nil)
                    }
                } else if case .help = stack.match(long: name) {
                    helpRequested = true
                } else if attached == nil, case .declared(let option, _) = stack.match(long: name),
                    option.kind.takesValue, Self.value(after: position, in: tokens) != nil
                {
                    position += 1
                }
            case .short(let letters):
                for letter in letters where stack.match(short: letter) == .help {
                    helpRequested = true
                }
                if let last = letters.last, case .declared(let option, _) = stack.match(short: last),
                    option.kind.takesValue, Self.value(after: position, in: tokens) != nil
                {
                    position += 1
                }
            case .value(let word):
                guard descending else { break }
                if helpSubcommand, let subcommand = stack.innermost.subcommand(named: word) {
                    stack.push(subcommand)
                    namedStack = stack
                    consumed.insert(position)
                } else if helpSubcommand {
                    descending = false
                } else if stack.isRoot, word == "help", !stack.innermost.subcommands.isEmpty,
                    stack.innermost.subcommand(named: word) == nil
                {
                    helpRequested = true
                    helpSubcommand = true
                    consumed.insert(position)
                } else if let subcommand = stack.innermost.subcommand(named: word) {
                    stack.push(subcommand)
                    namedStack = stack
                    consumed.insert(position)
                } else {
                    descending = false
                }
            }
            position += 1
        }
        if !helpRequested {
            while let fallback = stack.innermost.defaultCommand {
                stack.push(fallback)
            }
        }
    }

    /// The plain value right after `position`, if the next token is one.
    static func value(after position: Int, in tokens: [ArgumentToken]) -> String? {
        position + 1 < tokens.count ? tokens[position + 1].value : nil
    }
}

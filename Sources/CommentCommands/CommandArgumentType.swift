/// What a command's parameter takes, so that a wrong argument is refused before anything is sent.
///
/// gitbay's own limits decide the shapes: a label is 1 to 50 characters (`internal/control/label.go`),
/// not starting with `-` (see ``label``), an account name is what gitbay lets people register, and a
/// number is an item's.
public enum CommandArgumentType: Sendable, Hashable, CustomStringConvertible {
    /// Any one word (or quoted phrase).
    case word
    /// A label name: 1 to 50 characters, no line break, not starting with `-`.
    ///
    /// The bot sends labels as `issue label <repo> <n> --add <label>`, and gitbay's `parseFlags`
    /// (`internal/control/flags.go`) hands a value flag the next argument verbatim, so `--add
    /// --remove` would create a label named `--remove` (`runIssueLabel` in `internal/control/issue.go`
    /// checks no name). Yet gitbay would never take such a name anywhere else: `runLabelSet` reads
    /// its name through `parseFlags`, which takes an argument starting with `--` for a flag and
    /// refuses it as unknown, and `--` alone ends the flags. A single leading `-` is refused too:
    /// the bot's commands take no options, so `/label -bug` is someone reaching for one (to remove
    /// `bug`, say), not naming a label, and it is better answered with the usage line than obeyed.
    case label
    /// An account name, with or without a leading `@`, which is dropped.
    case user
    /// A whole number of at least 1.
    case number
    /// One of a fixed list of words, such as a merge strategy.
    case oneOf([String])

    /// The name a pattern spells it with (`label`), or its choices (`ff|merge`).
    public var description: String {
        switch self {
        case .word: "word"
        case .label: "label"
        case .user: "user"
        case .number: "number"
        case .oneOf(let choices): choices.joined(separator: "|")
        }
    }

    /// The type a pattern names: `word`, `label`, `user`, `number`, or `a|b|c`; `nil` for another name.
    init?(spelled text: String) {
        switch text {
        case "word": self = .word
        case "label": self = .label
        case "user": self = .user
        case "number": self = .number
        default:
            let choices = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard choices.count > 1, choices.allSatisfy(CommandPattern.isName) else { return nil }
            self = .oneOf(choices)
        }
    }

    /// `argument` as this type takes it (`@alice` as `alice`), or why it is not one.
    func accept(_ argument: String) -> Result<String, CommandArgumentProblem> {
        switch self {
        case .word:
            return .success(argument)
        case .label:
            guard (1...50).contains(argument.count), !argument.contains(where: \.isNewline) else {
                return .failure(CommandArgumentProblem("a label is 1 to 50 characters"))
            }
            guard !argument.hasPrefix("-") else {
                return .failure(CommandArgumentProblem("\(argument) is not a label: a label does not start with -"))
            }
            return .success(argument)
        case .user:
            let name = argument.hasPrefix("@") ? String(argument.dropFirst()) : argument
            guard Self.isAccountName(name) else {
                return .failure(CommandArgumentProblem("\(argument) is not an account name"))
            }
            return .success(name)
        case .number:
            guard let number = Int(argument), number >= 1 else {
                return .failure(CommandArgumentProblem("\(argument) is not a number"))
            }
            return .success(String(number))
        case .oneOf(let choices):
            guard let choice = choices.first(where: { $0 == argument.lowercased() }) else {
                return .failure(CommandArgumentProblem("\(argument) is not one of \(choices.joined(separator: ", "))"))
            }
            return .success(choice)
        }
    }

    /// Letters, digits, `-`, `_` and `.`, 1 to 39 of them, starting with a letter or digit: what
    /// gitbay accepts as a username (guess: the bot checks shape only, gitbay decides the rest).
    public static func isAccountName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, (1...39).contains(scalars.count), isAlphanumeric(first) else { return false }
        return scalars.allSatisfy { isAlphanumeric($0) || "-_.".unicodeScalars.contains($0) }
    }

    /// An ASCII letter or digit.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}

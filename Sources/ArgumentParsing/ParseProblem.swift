/// Why a command line cannot run, before it is worded.
///
/// The parser decides what went wrong; the wording (copied from argument-parser, so users of its tools read
/// familiar sentences) lives here and nowhere else.
enum ParseProblem: Error, Equatable, Sendable {
    /// An option no command in the stack declares; `spelling` is `--x` or `-x`, `suggestion` a close long one.
    case unknownOption(spelling: String, suggestion: String?)
    /// A value-taking option at the end of the line or followed by another option.
    case missingValue(spelling: String, option: OptionSpec)
    /// `--flag=value` for a flag.
    case unexpectedValue(spelling: String, value: String)
    /// A value outside the option's allowed values.
    case invalidValue(value: String, spelling: String, option: OptionSpec)
    /// Positional values nothing declared takes.
    case unexpectedArguments([String])
    /// A word where a subcommand goes that names none, but is close to `suggestion`.
    case mistypedSubcommand(String, suggestion: String)
    /// A required positional argument that was not given.
    case missingPositional(PositionalSpec)
    /// A required option that was not given.
    case missingOption(OptionSpec)
    /// A command that only groups subcommands was given options but no subcommand.
    case missingSubcommand
    /// `--generate-completion-script` named a shell we cannot write for, or none could be detected.
    case unsupportedShell(String?)

    /// The sentence shown after `Error: `.
    var message: String {
        switch self {
        case .unknownOption(let spelling, let suggestion):
            let base = "Unknown option '\(spelling)'"
            return suggestion.map { "\(base). Did you mean '\($0)'?" } ?? base
        case .missingValue(let spelling, let option):
            return "Missing value for '\(spelling) <\(option.valueName)>'"
        case .unexpectedValue(let spelling, let value):
            return "The option '\(spelling)' does not take any value, but '\(value)' was specified."
        case .invalidValue(let value, let spelling, let option):
            return "The value '\(value)' is invalid for '\(spelling) <\(option.valueName)>'"
                + Self.valueList(option.allowedValues)
        case .unexpectedArguments(let values):
            if values.count == 1 {
                return "Unexpected argument '\(values[0])'"
            }
            return "\(values.count) unexpected arguments: '\(values.joined(separator: "', '"))'"
        case .mistypedSubcommand(let word, let suggestion):
            return "Unexpected argument '\(word)'. Did you mean '\(suggestion)'?"
        case .missingPositional(let positional):
            var synopsis = "<\(positional.name)>"
            if positional.isRepeating {
                synopsis += " ..."
            }
            return "Missing expected argument '\(synopsis)'"
        case .missingOption(let option):
            return "Missing expected argument '--\(option.name) <\(option.valueName)>'"
        case .missingSubcommand:
            return "Missing required subcommand."
        case .unsupportedShell(let shell):
            let first =
                shell.map { "Can't generate completion scripts for '\($0)'." }
                ?? "Can't autodetect a supported shell."
            return first + "\nPlease use --generate-completion-script=<shell> with one of:\n    "
                + CompletionShell.allCases.map(\.rawValue).joined(separator: " ")
        }
    }

    /// The `Help:` line content: the argument's label and help text, when the problem concerns one that has help.
    var help: String? {
        switch self {
        case .missingValue(let spelling, let option), .invalidValue(_, let spelling, let option):
            return option.help.isEmpty ? nil : "\(spelling) <\(option.valueName)>  \(option.help)"
        case .missingPositional(let positional):
            return positional.help.isEmpty ? nil : "<\(positional.name)>  \(positional.help)"
        case .missingOption(let option):
            return option.help.isEmpty ? nil : "--\(option.name) <\(option.valueName)>  \(option.help)"
        default:
            return nil
        }
    }

    /// `. Please provide one of 'a', 'b' or 'c'.`, or a bulleted list when there are six or more.
    private static func valueList(_ values: [String]) -> String {
        guard !values.isEmpty else { return "" }
        if values.count >= 6 {
            return ". Please provide one of the following:\n" + values.map { "  - \($0)" }.joined(separator: "\n")
        }
        let quoted = values.map { "'\($0)'" }
        let list =
            quoted.count <= 2
            ? quoted.joined(separator: " and ")
            : quoted.dropLast().joined(separator: ", ") + " or \(quoted[quoted.count - 1])"
        return ". Please provide one of \(list)."
    }
}

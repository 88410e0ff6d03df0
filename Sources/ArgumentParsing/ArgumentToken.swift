/// One command-line argument, classified once, remembering where it came from.
///
/// Keeping the argv position lets later stages skip the words already used as subcommand names and quote
/// exactly what the user typed, as argument-parser's `SplitArguments` does.
struct ArgumentToken: Equatable, Sendable {
    /// What kind of argument a token is.
    enum Kind: Equatable, Sendable {
        /// `--name` or `--name=value`.
        case long(name: String, attachedValue: String?)
        /// `-x` or combined `-xyz`.
        case short(letters: [Character])
        /// Anything else, and everything after `--`.
        case value(String)
        /// `--`, which ends option parsing.
        case terminator
    }

    /// The classification.
    var kind: Kind
    /// The index in argv.
    var index: Int

    /// Splits argv into tokens.
    static func split(_ arguments: [String]) -> [ArgumentToken] {
        var tokens: [ArgumentToken] = []
        var afterTerminator = false
        for (index, argument) in arguments.enumerated() {
            let kind: Kind
            if afterTerminator {
                kind = .value(argument)
            } else if argument == "--" {
                afterTerminator = true
                kind = .terminator
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    kind = .long(
                        name: String(body[..<equals]), attachedValue: String(body[body.index(after: equals)...]))
                } else {
                    kind = .long(name: String(body), attachedValue: nil)
                }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                kind = .short(letters: Array(argument.dropFirst()))
            } else {
                kind = .value(argument)
            }
            tokens.append(ArgumentToken(kind: kind, index: index))
        }
        return tokens
    }

    /// The text of a plain value token, or nil for options and the terminator.
    var value: String? {
        if case .value(let text) = kind { text } else { nil }
    }
}

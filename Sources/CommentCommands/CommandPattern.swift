/// A rule's `command:`: the command's name and the parameters its arguments fill.
///
/// Written as people read a usage line: `/merge [strategy:ff|merge|squash|rebase]`,
/// `/label <labels:label>...`. `<name>` is required, `[name]` optional, `...` after the last takes
/// the rest; a parameter without a type takes any word. The type follows a colon with no space,
/// so that the pattern needs no quotes in YAML (`: ` would start a mapping); spaces are taken too. Parsed when the rules are checked, so a
/// mistake is reported at its column and never met in a comment.
public struct CommandPattern: Sendable, Hashable {
    /// The name templates give who wrote the command (`{{ command.author }}`), which no parameter may take.
    public static let authorName = "author"

    /// Without the slash, lower case: `merge`.
    public let name: String
    public let parameters: [CommandParameter]

    public init(name: String, parameters: [CommandParameter]) {
        self.name = name
        self.parameters = parameters
    }

    /// As a usage line: `/merge [strategy:ff|merge|squash|rebase]`.
    public var usage: String {
        (["/" + name] + parameters.map(\.spelled)).joined(separator: " ")
    }

    /// A command or parameter name: a lower-case letter, then up to 31 letters, digits, `-` or `_`.
    static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.unicodeScalars.count <= 32
        else { return false }
        return text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    /// Reads `text`; the error points at the character that is wrong.
    public init(parsing text: String) throws(CommandPatternError) {
        let characters = Array(text)
        var index = 0
        func skipSpaces() {
            while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
        }
        /// The longest run of name characters at `index`.
        func word(allowing extra: Set<Character> = []) -> String {
            let start = index
            while index < characters.count,
                characters[index].isLetter || characters[index].isNumber || "-_".contains(characters[index])
                    || extra.contains(characters[index])
            {
                index += 1
            }
            return String(characters[start..<index])
        }
        skipSpaces()
        guard index < characters.count, characters[index] == "/" else {
            throw CommandPatternError("a command starts with /, as in /label <labels:label>...", at: index)
        }
        index += 1
        let nameStart = index
        let name = word()
        guard Self.isName(name) else {
            throw CommandPatternError(
                "a command's name is a lower-case letter, then letters, digits, - or _ (at most 32)", at: nameStart)
        }
        var parameters: [CommandParameter] = []
        while true {
            let before = index
            skipSpaces()
            guard index < characters.count else { break }
            guard index > before else {
                throw CommandPatternError("put a space between the command and its parameters", at: index)
            }
            let opening = characters[index]
            guard opening == "<" || opening == "[" else {
                throw CommandPatternError("a parameter is <name> (required) or [name] (optional)", at: index)
            }
            if let last = parameters.last, last.isRepeated {
                throw CommandPatternError(
                    "nothing can follow \(last.spelled), which takes every argument left", at: index)
            }
            let closing: Character = opening == "<" ? ">" : "]"
            index += 1
            skipSpaces()
            let parameterStart = index
            let parameterName = word()
            guard Self.isName(parameterName) else {
                throw CommandPatternError(
                    "a parameter's name is a lower-case letter, then letters, digits, - or _", at: parameterStart)
            }
            guard !parameters.contains(where: { $0.name == parameterName }) else {
                throw CommandPatternError("\(parameterName) is already a parameter of /\(name)", at: parameterStart)
            }
            skipSpaces()
            var type = CommandArgumentType.word
            if index < characters.count, characters[index] == ":" {
                index += 1
                skipSpaces()
                let typeStart = index
                let spelled = word(allowing: ["|"])
                guard let named = CommandArgumentType(spelled: spelled) else {
                    throw CommandPatternError(
                        "a parameter's type is word, label, user, number, or choices such as ff|merge",
                        at: typeStart)
                }
                type = named
                skipSpaces()
            }
            guard index < characters.count, characters[index] == closing else {
                throw CommandPatternError("expected \(closing) to close \(opening)\(parameterName)", at: index)
            }
            index += 1
            var repeated = false
            if characters[index...].starts(with: "...") {
                repeated = true
                index += 3
            }
            let optional = opening == "["
            if !optional, let last = parameters.last, last.isOptional {
                throw CommandPatternError(
                    "the required <\(parameterName)> cannot follow the optional \(last.spelled)", at: parameterStart - 1
                )
            }
            parameters.append(
                CommandParameter(name: parameterName, type: type, isOptional: optional, isRepeated: repeated))
        }
        self.init(name: name, parameters: parameters)
    }
}

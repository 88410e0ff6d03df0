/// A command as a person wrote it on a line of a comment: `/label bug "good first issue"`.
public struct CommentCommand: Sendable, Hashable {
    /// Lower case, without the slash.
    public let name: String
    /// The words after the name; a quoted phrase is one word, without its quotes.
    public let arguments: [String]
    /// Which line of the comment, from 1.
    public let line: Int
    /// The line as written, trimmed, for plans and replies.
    public let text: String
    /// Why the arguments could not be split into words (a quote left open); `nil` when they could.
    public let malformed: String?

    public init(name: String, arguments: [String], line: Int, text: String, malformed: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.line = line
        self.text = text
        self.malformed = malformed
    }

    /// The command a line holds: `/name` at its start, then words; `nil` for any other line (a
    /// path such as `/usr/bin` is a command named `usr` only if a rule has that name, which the
    /// caller decides).
    init?(line text: Substring, number: Int) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard trimmed.first == "/" else { return nil }
        let rest = trimmed.dropFirst()
        let name = rest.prefix { !$0.isWhitespace }
        guard CommandPattern.isName(name.lowercased()) else { return nil }
        let words = Self.words(rest.dropFirst(name.count))
        self.init(
            name: name.lowercased(), arguments: words.words, line: number,
            text: String(trimmed).trimmingTrailingWhitespace, malformed: words.problem)
    }

    /// Splits `text` at spaces; `"a b"` is one word and `\"` a quote inside it.
    static func words(_ text: Substring) -> (words: [String], problem: String?) {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in text {
            if quoted {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if character == "\"" {
                quoted = true
                inWord = true
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quoted { return (words, "a quote is left open") }
        if inWord { words.append(current) }
        return (words, nil)
    }
}

extension String {
    /// Without the spaces and line breaks at its end.
    var trimmingTrailingWhitespace: String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}

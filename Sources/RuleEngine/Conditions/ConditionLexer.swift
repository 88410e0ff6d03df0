/// Splits a condition's text into tokens, remembering where each one stands.
enum ConditionLexer {
    private static let symbols = ["!=", ">=", "<=", "~=", "!~", "=", ">", "<"]

    static func tokens(_ text: String) throws(ConditionSyntaxError) -> [ConditionToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [ConditionToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                index += 1
                continue
            }
            let start = index
            switch scalar {
            case "[":
                tokens.append(ConditionToken(kind: .openBracket, text: "[", span: SourceSpan(start: start, length: 1)))
                index += 1
            case "]":
                tokens.append(
                    ConditionToken(kind: .closeBracket, text: "]", span: SourceSpan(start: start, length: 1)))
                index += 1
            case ",":
                tokens.append(ConditionToken(kind: .comma, text: ",", span: SourceSpan(start: start, length: 1)))
                index += 1
            case "\"", "'":
                let (content, end) = try quoted(scalars, from: start)
                tokens.append(
                    ConditionToken(kind: .quoted, text: content, span: SourceSpan(start: start, length: end - start)))
                index = end
            default:
                if let symbol = symbol(in: scalars, at: index) {
                    tokens.append(
                        ConditionToken(
                            kind: .symbol, text: symbol, span: SourceSpan(start: start, length: symbol.count)))
                    index += symbol.count
                } else {
                    while index < scalars.count, !endsWord(scalars[index]),
                        symbol(in: scalars, at: index) == nil
                    {
                        index += 1
                    }
                    var word = String.UnicodeScalarView()
                    word.append(contentsOf: scalars[start..<index])
                    tokens.append(
                        ConditionToken(
                            kind: .word, text: String(word), span: SourceSpan(start: start, length: index - start)))
                }
            }
        }
        return tokens
    }

    private static func endsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || "[],\"'".unicodeScalars.contains(scalar)
    }

    private static func symbol(in scalars: [Unicode.Scalar], at index: Int) -> String? {
        for symbol in symbols {
            let symbolScalars = Array(symbol.unicodeScalars)
            if index + symbolScalars.count <= scalars.count,
                Array(scalars[index..<index + symbolScalars.count]) == symbolScalars
            {
                return symbol
            }
        }
        return nil
    }

    /// Reads a quoted string starting at `start`; `\"`, `\'` and `\\` escape, as in most languages.
    private static func quoted(
        _ scalars: [Unicode.Scalar], from start: Int
    ) throws(ConditionSyntaxError) -> (
        String, Int
    ) {
        let quote = scalars[start]
        var content = String.UnicodeScalarView()
        var index = start + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                content.append(scalars[index + 1])
                index += 2
                continue
            }
            if scalar == quote {
                return (String(content), index + 1)
            }
            content.append(scalar)
            index += 1
        }
        throw ConditionSyntaxError(
            "unterminated quoted text; add the closing \(quote)", at: SourceSpan(start: start, length: index - start))
    }
}

/// Text with `{{ field }}` placeholders, as comment actions take it.
///
/// Placeholders name fields of the rule's item kind and are checked before anything runs, so a
/// typo is a `check` error rather than a comment that says "{{ idel }}" on a real issue.
public struct Template: Sendable, Hashable {
    /// A run of literal text or a placeholder.
    public enum Part: Sendable, Hashable {
        case text(String)
        /// A field name and where it stands in the template text.
        case field(String, SourceSpan)
    }

    public var parts: [Part]

    /// The field names the template uses, in order of appearance.
    public var fieldNames: [String] {
        parts.compactMap { part in
            if case .field(let name, _) = part { return name }
            return nil
        }
    }

    /// Text taken as it is: a command's reply, whose words (a person's among them) are never
    /// read as placeholders.
    public static func literal(_ text: String) -> Template {
        Template(parts: [.text(text)])
    }

    init(parts: [Part]) {
        self.parts = parts
    }

    /// Splits `text` into literal runs and placeholders.
    public init(parsing text: String) throws(ConditionSyntaxError) {
        let scalars = Array(text.unicodeScalars)
        var parts: [Part] = []
        var literal = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "{", index + 1 < scalars.count, scalars[index + 1] == "{" {
                guard let close = Self.closing(scalars, from: index + 2) else {
                    throw ConditionSyntaxError(
                        "unclosed placeholder; write {{ field }}", at: SourceSpan(start: index, length: 2))
                }
                var inner = index + 2
                while inner < close, scalars[inner].properties.isWhitespace { inner += 1 }
                var end = close
                while end > inner, scalars[end - 1].properties.isWhitespace { end -= 1 }
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[inner..<end])
                guard end > inner else {
                    throw ConditionSyntaxError(
                        "empty placeholder; write {{ field }}", at: SourceSpan(start: index, length: close + 2 - index))
                }
                if !literal.isEmpty {
                    parts.append(.text(String(literal)))
                    literal = String.UnicodeScalarView()
                }
                parts.append(.field(String(name), SourceSpan(start: inner, length: end - inner)))
                index = close + 2
            } else {
                literal.append(scalars[index])
                index += 1
            }
        }
        if !literal.isEmpty {
            parts.append(.text(String(literal)))
        }
        self.parts = parts
    }

    private static func closing(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == "}" && scalars[index + 1] == "}" { return index }
            if scalars[index] == "{" && scalars[index + 1] == "{" { return nil }
            index += 1
        }
        return nil
    }

    /// The text with each placeholder replaced by `value(name)`.
    public func render(_ value: (String) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .field(let name, _): return value(name)
            }
        }.joined()
    }
}

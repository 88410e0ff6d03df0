/// One value written in a condition: `open`, `60d`, `"needs review"`, `@me`.
public struct OperandValue: Sendable, Hashable {
    /// The text, with quotes removed and escapes resolved.
    public var text: String
    /// Whether it was written in quotes, which makes it always literal text (never `@me`).
    public var isQuoted: Bool
    public var span: SourceSpan

    public init(text: String, isQuoted: Bool, span: SourceSpan) {
        self.text = text
        self.isQuoted = isQuoted
        self.span = span
    }

    /// Whether it names the bot's own account.
    public var isMe: Bool { !isQuoted && text == "@me" }
}

/// The right-hand side of a comparison: one value or a bracketed list.
public enum ConditionOperand: Sendable, Hashable {
    case single(OperandValue)
    case list([OperandValue], span: SourceSpan)

    /// The values, one or many.
    public var values: [OperandValue] {
        switch self {
        case .single(let value): return [value]
        case .list(let values, _): return values
        }
    }

    public var span: SourceSpan {
        switch self {
        case .single(let value): return value.span
        case .list(_, let span): return span
        }
    }

    public var isList: Bool {
        if case .list = self { return true }
        return false
    }
}

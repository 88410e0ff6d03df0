/// One token of a condition: `idle`, `>`, `60d`, `[`, `"text"`, `@me`.
struct ConditionToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A bare word: a field name, a keyword, a value (`open`, `60d`, `bug`, `2026-01-01`).
        case word
        /// A quoted string; `text` holds its content with escapes resolved.
        case quoted
        /// A comparison symbol: `=`, `!=`, `>`, `>=`, `<`, `<=`, `~=`, `!~`.
        case symbol
        case openBracket
        case closeBracket
        case comma
    }

    var kind: Kind
    var text: String
    var span: SourceSpan
}

/// How a scalar was written in the source.
///
/// The decoder needs it because YAML 1.2 types only *plain* scalars: `"12"` is text even when an
/// integer is requested, and a quoted `"null"` is never null.
public enum ScalarStyle: String, Sendable, Hashable {
    /// Written bare: `name: triage`.
    case plain
    /// Written in single quotes: `'it''s'`.
    case singleQuoted
    /// Written in double quotes, with escapes: `"a\tb"`.
    case doubleQuoted
    /// A `|` block scalar, which keeps line breaks.
    case literal
    /// A `>` block scalar, which folds line breaks into spaces.
    case folded
}

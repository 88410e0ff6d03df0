import Foundation

/// What a field holds for one item, as a plugin derives it from forge state.
public enum FieldValue: Sendable, Hashable {
    case boolean(Bool)
    case count(Int)
    /// A span of time in seconds.
    case duration(Double)
    case timestamp(Date)
    /// Text, a user name or an enumeration value.
    case text(String)
    /// A set of label or user names, in a stable order for display.
    case set([String])
    /// The field does not apply to this item (no comments yet, so no `last_comment.author`).
    case absent

    /// The value as `explain` shows it.
    public var display: String {
        switch self {
        case .boolean(let value): return value ? "true" : "false"
        case .count(let value): return String(value)
        case .duration(let seconds): return DurationLiteral.describe(seconds: seconds)
        case .timestamp(let date): return date.formatted(.iso8601)
        case .text(let text): return text
        case .set(let names): return "[" + names.joined(separator: ", ") + "]"
        case .absent: return "(none)"
        }
    }
}

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
    /// A set of label or user names (in any order; shown sorted).
    case set([String])
    /// The field does not apply to this item (no comments yet, so no `last_comment.author`).
    case absent
    /// The field applies but nobody can say its value: a label the feed shows no addition of and
    /// the bot's journal never added (`label_age.stale`). Fails every test as ``absent`` does;
    /// kept apart so that `explain` says which of the two it saw.
    case unknown

    /// The value as `explain` shows it.
    public var display: String {
        switch self {
        case .boolean(let value): return value ? "true" : "false"
        case .count(let value): return String(value)
        case .duration(let seconds): return DurationLiteral.describe(seconds: seconds)
        case .timestamp(let date): return date.formatted(.iso8601)
        case .text(let text): return text
        case .set(let names): return "[" + names.sorted().joined(separator: ", ") + "]"
        case .absent: return "(none)"
        case .unknown: return "(unknown)"
        }
    }

    /// The value as a `{{ field }}` placeholder writes it into a comment or a status.
    ///
    /// People read these on the item, so a duration is in words (`181 days`, ``DurationLiteral/words(seconds:)``);
    /// plans and `explain` keep ``display``'s compact `181d 3h`, which is how rules write durations.
    public var spoken: String {
        if case .duration(let seconds) = self { return DurationLiteral.words(seconds: seconds) }
        return display
    }

    /// Whether the item has no value of the field, for either reason: what `is absent` tests.
    public var isAbsent: Bool {
        switch self {
        case .absent, .unknown: return true
        default: return false
        }
    }
}

extension FieldValue {
    /// Equal values; label and user sets compare as sets, whatever order they were read in.
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.count(let a), .count(let b)): return a == b
        case (.duration(let a), .duration(let b)): return a == b
        case (.timestamp(let a), .timestamp(let b)): return a == b
        case (.text(let a), .text(let b)): return a == b
        case (.set(let a), .set(let b)): return Set(a) == Set(b)
        case (.absent, .absent): return true
        case (.unknown, .unknown): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .boolean(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .count(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .duration(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .timestamp(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .text(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .set(let names):
            hasher.combine(5)
            hasher.combine(Set(names))
        case .absent: hasher.combine(6)
        case .unknown: hasher.combine(7)
        }
    }
}

import Foundation

/// A value a condition compares with, resolved from its text once the field's type is known.
public enum Literal: Sendable, Hashable {
    case text(String)
    /// The bot's own account, filled in when the rules run.
    case me
    case count(Int)
    case duration(Double)
    case timestamp(Date)
    case boolean(Bool)

    /// The literal as a field value, with `@me` resolved.
    func value(me: String) -> FieldValue {
        switch self {
        case .text(let text): return .text(text)
        case .me: return .text(me)
        case .count(let count): return .count(count)
        case .duration(let seconds): return .duration(seconds)
        case .timestamp(let date): return .timestamp(date)
        case .boolean(let flag): return .boolean(flag)
        }
    }
}

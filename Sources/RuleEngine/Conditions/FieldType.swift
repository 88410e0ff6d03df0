/// What kind of value a field holds, which decides the comparisons a condition may make with it.
public enum FieldType: Sendable, Hashable {
    /// `draft`, `superseded`: tested bare, or with `not`.
    case boolean
    /// `approvals`, `number`: compared with whole numbers.
    case count
    /// `age`, `idle`: a time span up to now, compared with `60d`, `2w`, `36h`.
    case duration
    /// `created_at`, `last_comment.at`: compared with `2026-01-31` or an RFC 3339 time.
    case timestamp
    /// `title`, `ref`, `job`: compared for equality, membership, or with a regular expression.
    case text
    /// `author`: a user name; `@me` is the bot's own account.
    case user
    /// `state`, `status`: one of a known set of values.
    case enumeration([String])
    /// `labels`: a set of label names, tested with `has`, `has any`, `lacks`.
    case labelSet
    /// `assignees`: a set of user names, tested like labels; `@me` allowed.
    case userSet

    /// The type's name as people read it in docs and errors.
    public var name: String {
        switch self {
        case .boolean: return "boolean"
        case .count: return "count"
        case .duration: return "duration"
        case .timestamp: return "timestamp"
        case .text: return "text"
        case .user: return "user"
        case .enumeration(let values): return "one of " + values.joined(separator: ", ")
        case .labelSet: return "label set"
        case .userSet: return "user set"
        }
    }

    /// The type as errors say it, with its article: `a count`, `a label set`, `one of open, closed`.
    public var described: String {
        if case .enumeration = self { return name }
        return "a " + name
    }

    /// The comparisons allowed on this type, for checking and for error messages.
    public var operators: [ComparisonOperator] {
        ordinaryOperators + [.is]
    }

    /// The comparisons of values of this type, without `is absent`, which every type takes.
    private var ordinaryOperators: [ComparisonOperator] {
        switch self {
        case .boolean: return [.equal, .notEqual]
        case .count: return [.equal, .notEqual, .greater, .greaterOrEqual, .less, .lessOrEqual, .in, .notIn]
        case .duration, .timestamp: return [.greater, .greaterOrEqual, .less, .lessOrEqual]
        case .text, .user: return [.equal, .notEqual, .in, .notIn, .matches, .notMatches]
        case .enumeration: return [.equal, .notEqual, .in, .notIn]
        case .labelSet, .userSet: return [.has, .hasAny, .lacks]
        }
    }
}

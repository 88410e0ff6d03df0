/// The ways a condition compares a field with a value.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="
    /// The field's text matches a regular expression.
    case matches = "~="
    /// The field's text does not match a regular expression.
    case notMatches = "!~"
    /// The set holds the value, or every value of a list.
    case has = "has"
    /// The set holds at least one value of the list.
    case hasAny = "has any"
    /// The set holds the value, or none of the values of a list.
    case lacks = "lacks"
    /// The field's value is one of the list.
    case `in` = "in"
    /// The field's value is none of the list.
    case notIn = "not in"
    /// `is absent`, `is present`: whether the item has a value of the field at all.
    case `is` = "is"

    /// Whether this operator orders values (durations, times, counts).
    var isOrdering: Bool {
        switch self {
        case .greater, .greaterOrEqual, .less, .lessOrEqual: return true
        default: return false
        }
    }
}

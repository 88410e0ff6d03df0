import Foundation

/// A condition's test, type-checked and ready to apply to a field's value.
public enum Predicate: Sendable, Hashable {
    /// A bare boolean field.
    case isTrue
    /// `=` or `!=` with one value, `in` or `not in` with several.
    case oneOf([Literal], negated: Bool)
    /// `>`, `>=`, `<`, `<=` with a duration, a time or a count.
    case order(ComparisonOperator, Literal)
    /// `~=` or `!~` with a regular expression (kept as its source; compiled when checked).
    case matches(String, negated: Bool)
    /// `has` with one or more values: every one is in the set.
    case hasAll([Literal])
    /// `has any`: at least one is in the set.
    case hasAny([Literal])
    /// `lacks`: none is in the set.
    case lacksAll([Literal])
    /// `is absent` (or, `negated`, `is present`): the item has no value of the field, because it
    /// does not apply or because nobody can say it (``FieldValue/isAbsent``).
    ///
    /// The one test an absent value can pass: a rule says with it what to do while a clock has
    /// not started (`comment_age.mark-stale is absent`: no notice of the rule's on the issue).
    case absence(negated: Bool)

    /// Applies the test; an absent value fails every test but ``absence(negated:)`` (so a `not` in
    /// front passes it).
    public func holds(for value: FieldValue, me: String) -> Bool {
        holds(for: value, me: me, patterns: Patterns())
    }

    /// Applies the test, taking a `~=` pattern from `patterns`, which keeps what it compiled.
    func holds(for value: FieldValue, me: String, patterns: Patterns) -> Bool {
        if case .absence(let negated) = self { return value.isAbsent != negated }
        if value.isAbsent { return false }
        switch self {
        case .absence: return false
        case .isTrue:
            return value == .boolean(true)
        case .oneOf(let literals, let negated):
            let found = literals.contains { value == $0.value(me: me) }
            return found != negated
        case .order(let op, let literal):
            guard let order = Self.compare(value, literal.value(me: me)) else { return false }
            switch op {
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            default: return false
            }
        case .matches(let pattern, let negated):
            guard case .text(let text) = value, let regex = patterns.regex(pattern) else { return false }
            return ((try? regex.firstMatch(in: text)) != nil) != negated
        case .hasAll(let literals):
            guard case .set(let names) = value else { return false }
            return literals.allSatisfy { Self.member($0, of: names, me: me) }
        case .hasAny(let literals):
            guard case .set(let names) = value else { return false }
            return literals.contains { Self.member($0, of: names, me: me) }
        case .lacksAll(let literals):
            guard case .set(let names) = value else { return false }
            return !literals.contains { Self.member($0, of: names, me: me) }
        }
    }

    private static func member(_ literal: Literal, of names: [String], me: String) -> Bool {
        guard case .text(let name) = literal.value(me: me) else { return false }
        return names.contains(name)
    }

    /// Orders two values of the same kind: negative, zero or positive; `nil` when they differ in kind.
    private static func compare(_ value: FieldValue, _ other: FieldValue) -> Int? {
        switch (value, other) {
        case (.duration(let a), .duration(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.count(let a), .count(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.timestamp(let a), .timestamp(let b)): return a < b ? -1 : a > b ? 1 : 0
        default: return nil
        }
    }
}

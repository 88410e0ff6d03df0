import Suggestions

/// A condition that passed the checker: its field is known and its test fits the field's type.
public struct CheckedCondition: Sendable, Hashable {
    public var expression: ConditionExpression
    public var field: FieldSpec
    public var predicate: Predicate

    /// Whether the condition holds for a value of its field.
    public func holds(for value: FieldValue, me: String) -> Bool {
        predicate.holds(for: value, me: me) != expression.isNegated
    }

    /// Checks a parsed condition against the fields an item kind offers.
    ///
    /// Every error points at the part of the text it is about: the field name, the operator or the
    /// value, so that `check` can underline it inside the rule file.
    public static func check(
        _ expression: ConditionExpression, fields: [String: FieldSpec]
    ) throws(ConditionSyntaxError) -> CheckedCondition {
        guard let field = fields[expression.field] else {
            var message = "unknown field '\(expression.field)'"
            if let suggestion = Suggestion.closest(to: expression.field, among: fields.keys) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw ConditionSyntaxError(message, at: expression.fieldSpan)
        }
        let predicate = try ConditionTyping(field: field).predicate(for: expression)
        return CheckedCondition(expression: expression, field: field, predicate: predicate)
    }
}

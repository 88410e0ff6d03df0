import Foundation
import Suggestions

/// Turns a parsed comparison into a ``Predicate`` for one field, or says what does not fit.
struct ConditionTyping {
    let field: FieldSpec

    func predicate(for expression: ConditionExpression) throws(ConditionSyntaxError) -> Predicate {
        guard let comparison = expression.comparison else {
            guard field.type == .boolean else {
                throw ConditionSyntaxError(
                    "'\(field.name)' (\(field.type.described)) is not a boolean; compare it, as in "
                        + example, at: expression.fieldSpan)
            }
            return .isTrue
        }
        let op = comparison.operator
        guard field.type.operators.contains(op) else {
            // `is` stands only before `absent` or `present`, so it is offered as it is written.
            let allowed = field.type.operators.map { $0 == .is ? "'is absent'" : "'\($0.rawValue)'" }
                .joined(separator: ", ")
            throw ConditionSyntaxError(
                "'\(op.rawValue)' does not apply to '\(field.name)' (\(field.type.described)); use \(allowed)",
                at: comparison.operatorSpan)
        }
        let operand = comparison.operand
        switch op {
        case .in, .notIn, .hasAny:
            guard operand.isList else {
                throw ConditionSyntaxError(
                    "'\(op.rawValue)' takes a list, such as [a, b]", at: operand.span)
            }
        case .has, .lacks:
            break
        default:
            if operand.isList {
                throw ConditionSyntaxError(
                    "'\(op.rawValue)' compares with one value; use 'in' for a list", at: operand.span)
            }
        }
        // `is` takes no value of the field's type: only the word after it.
        let literals =
            op == .is ? [] : try operand.values.map { (value) throws(ConditionSyntaxError) in try literal(value) }
        switch op {
        case .equal: return .oneOf(literals, negated: false)
        case .notEqual: return .oneOf(literals, negated: true)
        case .in: return .oneOf(literals, negated: false)
        case .notIn: return .oneOf(literals, negated: true)
        case .greater, .greaterOrEqual, .less, .lessOrEqual: return .order(op, literals[0])
        case .matches, .notMatches:
            guard case .text(let pattern) = literals[0] else {
                throw ConditionSyntaxError("a regular expression is text", at: operand.span)
            }
            do {
                _ = try Regex(pattern)
            } catch {
                throw ConditionSyntaxError("invalid regular expression: \(error)", at: operand.span)
            }
            return .matches(pattern, negated: op == .notMatches)
        case .has: return .hasAll(literals)
        case .hasAny: return .hasAny(literals)
        case .lacks: return .lacksAll(literals)
        case .is:
            // The parser takes `is` only before an unquoted `absent` or `present`.
            return .absence(negated: operand.values.first?.text == "present")
        }
    }

    private var example: String {
        switch field.type {
        case .duration: return "'\(field.name) > 30d'"
        case .timestamp: return "'\(field.name) < 2026-01-31'"
        case .count: return "'\(field.name) >= 1'"
        case .labelSet, .userSet: return "'\(field.name) has x'"
        case .enumeration(let values): return "'\(field.name) = \(values.first ?? "x")'"
        default: return "'\(field.name) = x'"
        }
    }

    /// Reads one written value as the field's type wants it.
    private func literal(_ value: OperandValue) throws(ConditionSyntaxError) -> Literal {
        // Quotes make text: a quoted `"30d"` is right but for its quotes, so say that instead of
        // calling it no duration.
        if value.isQuoted, [.boolean, .count, .duration].contains(field.type),
            (try? literal(OperandValue(text: value.text, isQuoted: false, span: value.span))) != nil
        {
            throw ConditionSyntaxError(
                "\(field.type.described) is written without quotes: \(value.text)",
                at: value.span)
        }
        switch field.type {
        case .boolean:
            guard !value.isQuoted, value.text == "true" || value.text == "false" else {
                throw ConditionSyntaxError(
                    "'\(field.name)' is a boolean: compare with true or false, or test it bare", at: value.span)
            }
            return .boolean(value.text == "true")
        case .count:
            guard !value.isQuoted, let count = Int(value.text), count >= 0 else {
                throw ConditionSyntaxError("'\(value.text)' is not a whole number", at: value.span)
            }
            return .count(count)
        case .duration:
            guard !value.isQuoted, let seconds = DurationLiteral.seconds(value.text) else {
                throw ConditionSyntaxError(
                    "'\(value.text)' is not a duration; write a number and a unit: 60d, 2w, 36h, 90m, 30s",
                    at: value.span)
            }
            return .duration(seconds)
        case .timestamp:
            guard let date = TimeLiteral.date(value.text) else {
                throw ConditionSyntaxError(
                    "'\(value.text)' is not a time; write 2026-01-31 or 2026-01-31T12:00:00Z", at: value.span)
            }
            return .timestamp(date)
        case .enumeration(let known):
            guard known.contains(value.text) else {
                var message = "'\(value.text)' is not a value of '\(field.name)'"
                if let suggestion = Suggestion.closest(to: value.text, among: known) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += " (values: \(known.joined(separator: ", ")))"
                throw ConditionSyntaxError(message, at: value.span)
            }
            return .text(value.text)
        case .user, .userSet:
            return value.isMe ? .me : .text(value.text)
        case .text, .labelSet:
            if value.isMe {
                throw ConditionSyntaxError("@me names a user, and '\(field.name)' is not a user", at: value.span)
            }
            guard !value.text.isEmpty else {
                throw ConditionSyntaxError("empty value", at: value.span)
            }
            return .text(value.text)
        }
    }
}

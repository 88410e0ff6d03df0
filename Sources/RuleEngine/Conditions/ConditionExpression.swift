/// One condition as written, parsed but not yet checked against the fields: `not tracking_issue`,
/// `idle > 60d`, `labels lacks [stale, pinned]`.
public struct ConditionExpression: Sendable, Hashable {
    /// A comparison of the field with a value.
    public struct Comparison: Sendable, Hashable {
        public var `operator`: ComparisonOperator
        public var operatorSpan: SourceSpan
        public var operand: ConditionOperand
    }

    /// The condition's text as written.
    public var text: String
    /// Whether it starts with `not`.
    public var isNegated: Bool
    /// The field's dotted name, such as `last_comment.author`.
    public var field: String
    public var fieldSpan: SourceSpan
    /// `nil` for a bare boolean field (`draft`, `not superseded`).
    public var comparison: Comparison?

    /// Parses one condition.
    public static func parse(_ text: String) throws(ConditionSyntaxError) -> ConditionExpression {
        var parser = try ConditionParser(text: text)
        return try parser.parse()
    }
}

/// A recursive-descent parser over one condition's tokens.
private struct ConditionParser {
    let text: String
    let tokens: [ConditionToken]
    var position = 0

    init(text: String) throws(ConditionSyntaxError) {
        self.text = text
        self.tokens = try ConditionLexer.tokens(text)
    }

    private var endSpan: SourceSpan { SourceSpan(start: text.unicodeScalars.count, length: 1) }

    mutating func parse() throws(ConditionSyntaxError) -> ConditionExpression {
        guard !tokens.isEmpty else {
            throw ConditionSyntaxError("empty condition", at: SourceSpan(start: 0, length: 1))
        }
        var negated = false
        if peek(word: "not"), tokens.count > 1 {
            negated = true
            position += 1
        }
        let field = try fieldName()
        var comparison: ConditionExpression.Comparison?
        if position < tokens.count {
            let (op, opSpan) = try comparisonOperator()
            let operand = try operand(after: op, at: opSpan)
            comparison = ConditionExpression.Comparison(operator: op, operatorSpan: opSpan, operand: operand)
        }
        if position < tokens.count {
            let extra = tokens[position]
            throw ConditionSyntaxError(
                "unexpected '\(extra.text)' after the condition; quote values with spaces, and write one "
                    + "condition per line (combine them with all:, any: or not:)",
                at: extra.span)
        }
        return ConditionExpression(
            text: text, isNegated: negated, field: field.text, fieldSpan: field.span, comparison: comparison)
    }

    private func peek(word: String) -> Bool {
        position < tokens.count && tokens[position].kind == .word && tokens[position].text == word
    }

    private mutating func fieldName() throws(ConditionSyntaxError) -> ConditionToken {
        let token = tokens[position]
        guard token.kind == .word, Self.isFieldName(token.text) else {
            throw ConditionSyntaxError(
                "expected a field name such as 'state' or 'labels', found '\(token.text)'", at: token.span)
        }
        position += 1
        return token
    }

    private static func isFieldName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isLowercase || first == "_" else {
            return false
        }
        // After a dot a field family takes a label or a rule by name (`label_age.needs-info`,
        // `label_age.P1`, `label_age.kind/bug`, `label_age.priority:high`): rule names have
        // hyphens, labels capitals, slashes and colons, and a repository's rule goes by
        // `owner/name:rule` once loaded (``RepositoryRuleNaming``).
        var named = false
        return text.unicodeScalars.allSatisfy { scalar in
            if scalar == "." { named = true }
            return scalar.properties.isLowercase || scalar.properties.numericType != nil
                || "_.".unicodeScalars.contains(scalar)
                || (named && ("-/:".unicodeScalars.contains(scalar) || scalar.properties.isUppercase))
        } && !text.hasSuffix(".") && !text.contains("..")
    }

    private mutating func comparisonOperator() throws(ConditionSyntaxError) -> (ComparisonOperator, SourceSpan) {
        let token = tokens[position]
        position += 1
        if token.kind == .symbol, let op = ComparisonOperator(rawValue: token.text) {
            return (op, token.span)
        }
        guard token.kind == .word else {
            throw ConditionSyntaxError(
                "expected a comparison (=, !=, >, >=, <, <=, ~=, !~, has, has any, lacks, in, not in, "
                    + "is absent), found '\(token.text)'", at: token.span)
        }
        switch token.text {
        case "has":
            if peek(word: "any") {
                let any = tokens[position]
                position += 1
                return (.hasAny, token.span.union(any.span))
            }
            if peek(word: "all") {
                let all = tokens[position]
                position += 1
                return (.has, token.span.union(all.span))
            }
            return (.has, token.span)
        case "lacks": return (.lacks, token.span)
        case "in": return (.in, token.span)
        case "not" where peek(word: "in"):
            let inToken = tokens[position]
            position += 1
            return (.notIn, token.span.union(inToken.span))
        case "is" where peek(word: "absent") || peek(word: "present"):
            return (.is, token.span)
        case "is":
            throw ConditionSyntaxError(
                "write '=' to compare, or 'is absent' / 'is present' to test whether there is a value",
                at: token.span)
        case "==", "equals":
            throw ConditionSyntaxError("write '=' to compare, not '\(token.text)'", at: token.span)
        default:
            throw ConditionSyntaxError(
                "expected a comparison (=, !=, >, >=, <, <=, ~=, !~, has, has any, lacks, in, not in, "
                    + "is absent), found '\(token.text)'", at: token.span)
        }
    }

    private mutating func operand(
        after op: ComparisonOperator, at opSpan: SourceSpan
    ) throws(ConditionSyntaxError)
        -> ConditionOperand
    {
        guard position < tokens.count else {
            throw ConditionSyntaxError("'\(op.rawValue)' needs a value after it", at: endSpan)
        }
        let token = tokens[position]
        switch token.kind {
        case .word, .quoted:
            position += 1
            return .single(OperandValue(text: token.text, isQuoted: token.kind == .quoted, span: token.span))
        case .openBracket:
            return try list(openedBy: token)
        case .symbol where op == .equal && token.text == "=":
            throw ConditionSyntaxError("use one '=' to compare, not '=='", at: token.span)
        case .symbol, .closeBracket, .comma:
            throw ConditionSyntaxError("expected a value after '\(op.rawValue)', found '\(token.text)'", at: token.span)
        }
    }

    private mutating func list(openedBy open: ConditionToken) throws(ConditionSyntaxError) -> ConditionOperand {
        position += 1
        var values: [OperandValue] = []
        while true {
            guard position < tokens.count else {
                throw ConditionSyntaxError("unterminated list; add the closing ]", at: open.span)
            }
            let token = tokens[position]
            switch token.kind {
            case .word, .quoted:
                values.append(OperandValue(text: token.text, isQuoted: token.kind == .quoted, span: token.span))
                position += 1
            default:
                throw ConditionSyntaxError("expected a value in the list, found '\(token.text)'", at: token.span)
            }
            guard position < tokens.count else {
                throw ConditionSyntaxError("unterminated list; add the closing ]", at: open.span)
            }
            let separator = tokens[position]
            position += 1
            switch separator.kind {
            case .comma:
                continue
            case .closeBracket:
                return .list(values, span: open.span.union(separator.span))
            default:
                throw ConditionSyntaxError(
                    "expected ',' or ']' in the list, found '\(separator.text)'", at: separator.span)
            }
        }
    }
}

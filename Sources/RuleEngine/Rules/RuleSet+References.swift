import Suggestions
import YAML

extension RuleSet {
    /// A rule named after the dot of a field family that takes rules (`comment_age.mark-stale`),
    /// in a condition or a template, as its file writes it.
    struct RuleReference {
        /// The rule named.
        var name: String
        /// The family's field as the docs list it: `comment_age.RULE`.
        var field: String
        /// Where the name starts, after the dot.
        var location: SourceLocation
        /// The kind of the rule that names it, whose items must carry the named rule's notices.
        var kind: ItemKind
    }

    /// The rules named through field families in a composed file's conditions and templates,
    /// read from the YAML itself, so a rule with mistakes of its own still has its names checked.
    static func ruleReferences(in root: Node, registry: PluginRegistry) -> [RuleReference] {
        guard case .sequence(let rules)? = value(of: "rules", in: root)?.content else { return [] }
        return rules.flatMap { rule -> [RuleReference] in
            guard let on = value(of: "on", in: rule)?.scalar,
                let kind = registry.kinds.first(where: { $0.rawValue == on })
            else { return [] }
            func reference(_ field: String, at offset: Int, in node: Node) -> RuleReference? {
                guard let (family, name) = registry.family(naming: field, for: kind), family.namesRule else {
                    return nil
                }
                let start = offset + family.prefix.unicodeScalars.count + 1
                return RuleReference(
                    name: name, field: family.spec.name, location: node.location(ofScalarOffset: start), kind: kind)
            }
            let conditions = scalars(in: value(of: "when", in: rule)).compactMap { node -> RuleReference? in
                guard let text = node.scalar, let condition = try? ConditionExpression.parse(text) else { return nil }
                return reference(condition.field, at: condition.fieldSpan.start, in: node)
            }
            let templates = scalars(in: value(of: "do", in: rule)).flatMap { node -> [RuleReference] in
                guard let text = node.scalar, text.contains("{{"), let template = try? Template(parsing: text) else {
                    return []
                }
                return template.parts.compactMap { part in
                    guard case .field(let field, let span) = part else { return nil }
                    return reference(field, at: span.start, in: node)
                }
            }
            return conditions + templates
        }
    }

    /// Every scalar under `node`: in lists, and as the values of mappings (`any:`, `comment:`).
    private static func scalars(in node: Node?) -> [Node] {
        switch node?.content {
        case .scalar: return node.map { [$0] } ?? []
        case .sequence(let items): return items.flatMap { scalars(in: $0) }
        case .mapping(let pairs): return pairs.flatMap { scalars(in: $0.value) }
        case nil: return []
        }
    }

    /// A rule named through a field family that no rule of the set has, or that acts on another
    /// kind of item, is an error at the name.
    ///
    /// The field counts from the named rule's notices on the item, found by its marker: a name no
    /// rule has (a typo, a rule renamed or dropped) leaves it without a value for good, and so
    /// does a rule of another kind, whose notices are never on this item; the rule comparing it
    /// waits for good, saying only that it waits. Rules may be split across files, so `names` and
    /// `kinds` are those of every file read. An error rather than a warning: the rule can never
    /// act as written, as surely as with an unknown field.
    static func unknownRules(
        _ references: [RuleReference], among names: [String], kinds: [(name: String, on: String)]
    ) -> [Diagnostic] {
        let known = Set(names)
        let kindOf = Dictionary(kinds.map { ($0.name, $0.on) }, uniquingKeysWith: { first, _ in first })
        return references.compactMap { reference in
            if let on = kindOf[reference.name], on != reference.kind.rawValue {
                return .error(
                    "rule '\(reference.name)' acts on \(on), not \(reference.kind.rawValue) (\(reference.field) "
                        + "counts from that rule's notices on this item, and it never posts one here, so this rule "
                        + "never acts)", at: reference.location)
            }
            guard !known.contains(reference.name) else { return nil }
            var message = "unknown rule '\(reference.name)'"
            if let suggestion = Suggestion.closest(to: reference.name, among: known) {
                message += "; did you mean '\(suggestion)'?"
            }
            return .error(
                message + " (\(reference.field) counts from that rule's notices; no rule read has this name, so it "
                    + "never has a value and this rule never acts)", at: reference.location)
        }
    }
}

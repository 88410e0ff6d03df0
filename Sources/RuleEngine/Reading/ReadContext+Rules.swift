import GitbayKit

/// What the rules ask of a read, as a kind's listing shapes its requests by it.
extension ReadContext {
    /// The union of the rules' scopes, as query terms.
    public func scope(of rules: [Rule]) -> RuleScope {
        RuleScope(union: rules.map(\.scope))
    }

    /// What the conditions of `rules` (all of `kind`) need read beyond the listing.
    public func conditionNeeds(_ rules: [Rule], kind: ItemKind) -> Set<ReadNeed> {
        rules.reduce(into: Set<ReadNeed>()) { $0.formUnion($1.condition.needs(registry: registry, kind: kind)) }
    }

    /// The single value every rule requires of `field`, for server-side filtering; `nil` when the
    /// rules differ or one does not pin it.
    private func commonRequirement(_ rules: [Rule], field: String) -> Set<String>? {
        var union = Set<String>()
        for rule in rules {
            guard let values = rule.condition.requiredValues(of: field) else { return nil }
            union.formUnion(values)
        }
        return union
    }

    /// The values of `kind`'s selection field (``PluginRegistry/selectionField(for:)``) that every
    /// rule requires, for the server to filter by; `nil` when they differ or the kind has none.
    public func selected(_ rules: [Rule], kind: ItemKind) -> Set<String>? {
        registry.selectionField(for: kind).flatMap { commonRequirement(rules, field: $0.name) }
    }

    /// The fields of `kind` whose value is the item's label set (declared with type ``FieldType/labelSet``).
    private func labelFields(of kind: ItemKind) -> [String] {
        registry.fields(for: kind).filter { $0.type == .labelSet }.map(\.name)
    }

    /// The label names rules of a kind test or change, so membership can be learnt by query.
    ///
    /// Found by what plugins declare, not by name: every label-set field a condition names, and
    /// the argument of every action that takes labels. An action missed here would be decided on
    /// a label set that lacks its labels.
    public func namedLabels(_ rules: [Rule]) -> Set<String> {
        var names = Set<String>()
        for rule in rules {
            for field in labelFields(of: rule.kind) {
                names.formUnion(rule.condition.namedValues(of: field))
            }
            for action in rule.actions where registry.action(action.name, for: rule.kind)?.argument == .labels {
                if case .names(let labels) = action.argument { names.formUnion(labels) }
            }
        }
        return names
    }

    /// Whether a template prints a whole label set, which label queries cannot give.
    public func printsLabels(_ rules: [Rule]) -> Bool {
        rules.contains { rule in
            let fields = Set(labelFields(of: rule.kind))
            return rule.actions.contains { action in
                switch action.argument {
                case .template(let template): return !fields.isDisjoint(with: template.fieldNames)
                case .parameters(let templates):
                    return templates.values.contains { !fields.isDisjoint(with: $0.fieldNames) }
                default: return false
                }
            }
        }
    }

    /// A label as a `label:` query term: quoted when it holds a space.
    public static func quoted(_ label: String) -> String {
        label.contains(" ") ? "\"\(label)\"" : label
    }
}

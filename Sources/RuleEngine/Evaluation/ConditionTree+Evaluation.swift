import YAML

extension ConditionTree {
    /// Evaluates the tree on one item with three-valued logic: `nil` when the answer depends on
    /// something not read yet.
    ///
    /// `all` is false as soon as one part is false even if others are unknown, and `any` true as
    /// soon as one part is true, which is what lets the read planner skip fetching details for
    /// items the cheap conditions already rule out.
    public func evaluate(
        _ context: ItemContext, registry: PluginRegistry, results: inout [ConditionResult]
    ) -> Bool? {
        switch self {
        case .all(let trees):
            var verdict: Bool? = true
            for tree in trees {
                switch tree.evaluate(context, registry: registry, results: &results) {
                case false: verdict = false
                case nil where verdict == true: verdict = nil
                default: break
                }
            }
            return verdict
        case .any(let trees):
            var verdict: Bool? = false
            for tree in trees {
                switch tree.evaluate(context, registry: registry, results: &results) {
                case true: verdict = true
                case nil where verdict == false: verdict = nil
                default: break
                }
            }
            return verdict
        case .not(let tree):
            return tree.evaluate(context, registry: registry, results: &results).map { !$0 }
        case .test(let condition, let location):
            let field = registry.field(condition.field.name, for: context.item.kind)
            let holds: Bool?
            let observed: String
            if let field, context.knows(field.needs) {
                let value = field.value(context)
                holds = condition.holds(for: value, me: context.me)
                observed = value.display
            } else {
                holds = nil
                observed = "(not read)"
            }
            results.append(
                ConditionResult(
                    condition: condition.expression.text, field: condition.field.name, observed: observed,
                    holds: holds, location: location.description))
            return holds
        }
    }

    /// The reads the tree's fields need, for the read planner.
    public func needs(registry: PluginRegistry, kind: ItemKind) -> Set<ReadNeed> {
        tests.reduce(into: Set<ReadNeed>()) { needs, condition in
            needs.formUnion(registry.field(condition.field.name, for: kind)?.needs ?? [])
        }
    }
}

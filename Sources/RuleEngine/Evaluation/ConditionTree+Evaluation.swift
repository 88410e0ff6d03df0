import YAML

extension ConditionTree {
    /// Evaluates the tree on one item with three-valued logic, recording every condition: `nil`
    /// when the answer depends on something not read yet.
    ///
    /// One item at a time (`explain`, the read planner); evaluating a rule over many items
    /// compiles it once with ``CompiledCondition`` instead.
    public func evaluate(
        _ context: ItemContext, registry: PluginRegistry, results: inout [ConditionResult]
    ) -> Bool? {
        CompiledCondition(self, kind: context.item.kind, registry: registry).evaluate(context, results: &results)
    }

    /// The reads the tree's fields need, for the read planner.
    public func needs(registry: PluginRegistry, kind: ItemKind) -> Set<ReadNeed> {
        tests.reduce(into: Set<ReadNeed>()) { needs, condition in
            needs.formUnion(registry.field(condition.field.name, for: kind)?.needs ?? [])
        }
    }
}

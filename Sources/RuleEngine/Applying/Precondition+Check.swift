extension Precondition {
    /// Re-checks the conditions on a fresh read of the item: `true`, `false` with the first
    /// condition that failed, or `nil` when a condition can no longer be parsed or read.
    public func check(_ context: ItemContext, registry: PluginRegistry) -> (holds: Bool?, failing: String?) {
        switch self {
        case .all(let parts):
            var verdict: Bool? = true
            for part in parts {
                let (holds, failing) = part.check(context, registry: registry)
                if holds == false { return (false, failing) }
                if holds == nil { verdict = nil }
            }
            return (verdict, nil)
        case .any(let parts):
            var verdict: Bool? = false
            var firstFailing: String?
            for part in parts {
                let (holds, failing) = part.check(context, registry: registry)
                if holds == true { return (true, nil) }
                if holds == nil { verdict = nil }
                firstFailing = firstFailing ?? failing
            }
            return (verdict, verdict == false ? firstFailing : nil)
        case .not(let part):
            let (holds, _) = part.check(context, registry: registry)
            return (holds.map { !$0 }, holds == true ? "not (\(part.text))" : nil)
        case .condition(let text):
            guard let expression = try? ConditionExpression.parse(text),
                let condition = try? CheckedCondition.check(
                    expression, fields: registry.fieldSpecs(for: context.item.kind, naming: [expression.field])),
                let field = registry.field(condition.field.name, for: context.item.kind),
                context.knows(field.needs)
            else { return (nil, nil) }
            let value = field.value(context)
            let holds = condition.holds(for: value, me: context.me)
            return (holds, holds ? nil : "\(text) (\(field.name) is \(value.display))")
        }
    }

    /// The conditions as written, joined, for messages.
    var text: String {
        switch self {
        case .all(let parts): return parts.map(\.text).joined(separator: " and ")
        case .any(let parts): return "any of (" + parts.map(\.text).joined(separator: ", ") + ")"
        case .not(let part): return "not (\(part.text))"
        case .condition(let text): return text
        }
    }

    /// The reads its fields need.
    func needs(registry: PluginRegistry, kind: ItemKind) -> Set<ReadNeed> {
        switch self {
        case .all(let parts), .any(let parts):
            return parts.reduce(into: Set<ReadNeed>()) { $0.formUnion($1.needs(registry: registry, kind: kind)) }
        case .not(let part):
            return part.needs(registry: registry, kind: kind)
        case .condition(let text):
            guard let expression = try? ConditionExpression.parse(text) else { return [] }
            return registry.field(expression.field, for: kind)?.needs ?? []
        }
    }
}

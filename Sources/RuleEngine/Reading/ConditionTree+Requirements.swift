extension ConditionTree {
    /// The values a field must take for the tree to hold, or `nil` when the tree does not pin it.
    ///
    /// Only a top-level `field = v` or `field in [...]` pins a field. The read planner pushes such requirements to the server (`is:open`, `--status pending`),
    /// which is only sound when every rule of a kind pins the field.
    public func requiredValues(of field: String) -> Set<String>? {
        switch self {
        case .all(let trees):
            return trees.compactMap { $0.requiredValues(of: field) }.reduce(nil) { result, values in
                result.map { $0.intersection(values) } ?? values
            }
        case .test(let condition, _):
            guard condition.field.name == field, !condition.expression.isNegated,
                case .oneOf(let literals, negated: false) = condition.predicate
            else { return nil }
            let values = literals.compactMap { literal -> String? in
                if case .text(let text) = literal { return text }
                return nil
            }
            return values.count == literals.count ? Set(values) : nil
        case .any, .not:
            return nil
        }
    }

    /// The tree without its top-level conditions that pin `field`: each holds for every item
    /// whose value of `field` is among ``requiredValues(of:)``, which is their intersection, so
    /// an item already found among them needs only the rest decided.
    public func removingRequirements(on field: String) -> ConditionTree {
        guard case .all(let parts) = self else { return self }
        return .all(
            parts.filter { part in
                guard case .test = part else { return true }
                return part.requiredValues(of: field) == nil
            })
    }

    /// Every label name the tree's set conditions mention for `field` (`labels has stale`).
    public func namedValues(of field: String) -> Set<String> {
        tests.reduce(into: Set<String>()) { names, condition in
            guard condition.field.name == field else { return }
            switch condition.predicate {
            case .hasAll(let literals), .hasAny(let literals), .lacksAll(let literals):
                for case .text(let name) in literals { names.insert(name) }
            default:
                break
            }
        }
    }
}

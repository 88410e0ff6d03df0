import YAML

/// A rule's condition prepared once for evaluating many items: fields looked up, needs as bits,
/// and the text and location each result reports already written.
///
/// Evaluating 50 rules over 100,000 items tests millions of conditions; looking a field up by
/// name, hashing its needs and formatting its location for every one of them was most of the cost.
public struct CompiledCondition: Sendable {
    /// One condition of the tree with everything a result reports about it.
    ///
    /// A class so that visiting it retains one reference instead of copying every string in it.
    final class Test: Sendable {
        /// The field's derivation; `nil` when no plugin offers the field for this kind (the
        /// condition is then unknown).
        let value: (@Sendable (ItemContext) -> FieldValue)?
        let needs: ReadNeed.Mask
        let predicate: Predicate
        let isNegated: Bool
        let text: String
        let field: String
        let location: String

        init(_ condition: CheckedCondition, at location: SourceLocation, kind: ItemKind, registry: PluginRegistry) {
            let field = registry.field(condition.field.name, for: kind)
            value = field?.value
            needs = ReadNeed.Mask(field?.needs ?? [])
            predicate = condition.predicate
            isNegated = condition.expression.isNegated
            text = condition.expression.text
            self.field = condition.field.name
            self.location = location.description
        }

        /// Whether the condition holds for the item; `nil` when its field is not read.
        ///
        /// Also gives the value, for the result that records it.
        func check(_ context: ItemContext) -> (holds: Bool, value: FieldValue)? {
            guard let value, context.knows(needs) else { return nil }
            let observed = value(context)
            return (predicate.holds(for: observed, me: context.me) != isNegated, observed)
        }
    }

    indirect enum Node: Sendable {
        case all([Node])
        case any([Node])
        case not(Node)
        case test(Test)

        init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry) {
            switch tree {
            case .all(let trees): self = .all(trees.map { Node($0, kind: kind, registry: registry) })
            case .any(let trees): self = .any(trees.map { Node($0, kind: kind, registry: registry) })
            case .not(let tree): self = .not(Node(tree, kind: kind, registry: registry))
            case .test(let condition, let location):
                self = .test(Test(condition, at: location, kind: kind, registry: registry))
            }
        }
    }

    let root: Node

    public init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry) {
        root = Node(tree, kind: kind, registry: registry)
    }

    /// The verdict alone, with the fewest tests: `all` stops at its first false part and `any` at
    /// its first true one, which gives the same answer as ``evaluate(_:results:)``.
    public func decide(_ context: ItemContext) -> Bool? {
        Self.decide(root, context)
    }

    /// The verdict with three-valued logic, recording every condition's observed value in order:
    /// `nil` when the answer depends on something not read yet.
    ///
    /// `all` is false as soon as one part is false even if others are unknown, and `any` true as
    /// soon as one part is true, which is what lets the read planner skip fetching details for
    /// items the cheap conditions already rule out.
    public func evaluate(_ context: ItemContext, results: inout [ConditionResult]) -> Bool? {
        Self.evaluate(root, context, results: &results)
    }

    private static func decide(_ node: Node, _ context: ItemContext) -> Bool? {
        switch node {
        case .all(let parts):
            var verdict: Bool? = true
            for part in parts {
                switch decide(part, context) {
                case false: return false
                case nil: verdict = nil
                default: break
                }
            }
            return verdict
        case .any(let parts):
            var verdict: Bool? = false
            for part in parts {
                switch decide(part, context) {
                case true: return true
                case nil: verdict = nil
                default: break
                }
            }
            return verdict
        case .not(let part):
            return decide(part, context).map { !$0 }
        case .test(let test):
            return test.check(context)?.holds
        }
    }

    private static func evaluate(_ node: Node, _ context: ItemContext, results: inout [ConditionResult]) -> Bool? {
        switch node {
        case .all(let parts):
            var verdict: Bool? = true
            for part in parts {
                switch evaluate(part, context, results: &results) {
                case false: verdict = false
                case nil where verdict == true: verdict = nil
                default: break
                }
            }
            return verdict
        case .any(let parts):
            var verdict: Bool? = false
            for part in parts {
                switch evaluate(part, context, results: &results) {
                case true: verdict = true
                case nil where verdict == false: verdict = nil
                default: break
                }
            }
            return verdict
        case .not(let part):
            return evaluate(part, context, results: &results).map { !$0 }
        case .test(let test):
            let checked = test.check(context)
            results.append(
                ConditionResult(
                    condition: test.text, field: test.field, observed: checked?.value.display ?? "(not read)",
                    holds: checked?.holds, location: test.location))
            return checked?.holds
        }
    }
}

import YAML

/// A rule's condition prepared once for evaluating many items: fields looked up, needs as bits,
/// and the text and location each result reports already written.
///
/// Evaluating 50 rules over 100,000 items tests millions of conditions; looking a field up by
/// name, hashing its needs and formatting its location for every one of them was most of the cost.
/// Conditions compiled against shared ``FieldSlots`` also share each item's ``FieldValues``, so
/// rules testing the same field of the same item derive it once.
public struct CompiledCondition: Sendable {
    /// One condition of the tree with everything a result reports about it.
    ///
    /// A class so that visiting it retains one reference instead of copying every string in it.
    final class Test: Sendable {
        /// The field's derivation; `nil` when no plugin offers the field for this kind (the
        /// condition is then unknown).
        let value: (@Sendable (ItemContext) -> FieldValue)?
        /// Where an item's value of the field is kept once derived.
        let slot: Int
        let needs: ReadNeed.Mask
        let predicate: Predicate
        let isNegated: Bool
        let text: String
        let field: String
        let location: String

        init(
            _ condition: CheckedCondition, at location: SourceLocation, kind: ItemKind, registry: PluginRegistry,
            slots: inout FieldSlots
        ) {
            let field = registry.field(condition.field.name, for: kind)
            value = field?.value
            slot = slots.slot(for: condition.field.name)
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
        func check(_ context: ItemContext, values: inout FieldValues) -> (holds: Bool, value: FieldValue)? {
            guard let value, context.knows(needs) else { return nil }
            let observed = values.value(at: slot) { value(context) }
            return (predicate.holds(for: observed, me: context.me) != isNegated, observed)
        }
    }

    indirect enum Node: Sendable {
        case all([Node])
        case any([Node])
        case not(Node)
        case test(Test)

        init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry, slots: inout FieldSlots) {
            switch tree {
            case .all(let trees):
                self = .all(trees.map { Node($0, kind: kind, registry: registry, slots: &slots) })
            case .any(let trees):
                self = .any(trees.map { Node($0, kind: kind, registry: registry, slots: &slots) })
            case .not(let tree):
                self = .not(Node(tree, kind: kind, registry: registry, slots: &slots))
            case .test(let condition, let location):
                self = .test(Test(condition, at: location, kind: kind, registry: registry, slots: &slots))
            }
        }
    }

    let root: Node
    /// How many slots the item's ``FieldValues`` need; more than this tree's own fields when the
    /// slots are shared with other rules.
    private let slotCount: Int

    /// The condition on its own, for judging one item at a time.
    public init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry) {
        var slots = FieldSlots()
        self.init(tree, kind: kind, registry: registry, slots: &slots)
    }

    /// The condition with its fields' slots taken from `slots`, shared with the other rules of
    /// the kind, so that one item's ``FieldValues`` serve them all.
    init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry, slots: inout FieldSlots) {
        root = Node(tree, kind: kind, registry: registry, slots: &slots)
        slotCount = slots.count
    }

    /// The verdict alone, with the fewest tests: `all` stops at its first false part and `any` at
    /// its first true one, which gives the same answer as ``evaluate(_:results:)``.
    public func decide(_ context: ItemContext) -> Bool? {
        var values = FieldValues(count: slotCount)
        return decide(context, values: &values)
    }

    /// The verdict alone, reusing and adding to the item's field values.
    func decide(_ context: ItemContext, values: inout FieldValues) -> Bool? {
        Self.decide(root, context, values: &values)
    }

    /// The verdict with three-valued logic, recording every condition's observed value in order:
    /// `nil` when the answer depends on something not read yet.
    ///
    /// `all` is false as soon as one part is false even if others are unknown, and `any` true as
    /// soon as one part is true, which is what lets the read planner skip fetching details for
    /// items the cheap conditions already rule out.
    public func evaluate(_ context: ItemContext, results: inout [ConditionResult]) -> Bool? {
        var values = FieldValues(count: slotCount)
        return evaluate(context, values: &values, results: &results)
    }

    /// The verdict with every condition recorded, reusing and adding to the item's field values.
    func evaluate(_ context: ItemContext, values: inout FieldValues, results: inout [ConditionResult]) -> Bool? {
        Self.evaluate(root, context, values: &values, results: &results)
    }

    private static func decide(_ node: Node, _ context: ItemContext, values: inout FieldValues) -> Bool? {
        switch node {
        case .all(let parts):
            var verdict: Bool? = true
            for part in parts {
                switch decide(part, context, values: &values) {
                case false: return false
                case nil: verdict = nil
                default: break
                }
            }
            return verdict
        case .any(let parts):
            var verdict: Bool? = false
            for part in parts {
                switch decide(part, context, values: &values) {
                case true: return true
                case nil: verdict = nil
                default: break
                }
            }
            return verdict
        case .not(let part):
            return decide(part, context, values: &values).map { !$0 }
        case .test(let test):
            return test.check(context, values: &values)?.holds
        }
    }

    private static func evaluate(
        _ node: Node, _ context: ItemContext, values: inout FieldValues, results: inout [ConditionResult]
    ) -> Bool? {
        switch node {
        case .all(let parts):
            var verdict: Bool? = true
            for part in parts {
                switch evaluate(part, context, values: &values, results: &results) {
                case false: verdict = false
                case nil where verdict == true: verdict = nil
                default: break
                }
            }
            return verdict
        case .any(let parts):
            var verdict: Bool? = false
            for part in parts {
                switch evaluate(part, context, values: &values, results: &results) {
                case true: verdict = true
                case nil where verdict == false: verdict = nil
                default: break
                }
            }
            return verdict
        case .not(let part):
            return evaluate(part, context, values: &values, results: &results).map { !$0 }
        case .test(let test):
            let checked = test.check(context, values: &values)
            results.append(
                ConditionResult(
                    condition: test.text, field: test.field, observed: checked?.value.display ?? "(not read)",
                    holds: checked?.holds, location: test.location))
            return checked?.holds
        }
    }
}

/// A slot number for each field name the compiled conditions of one item kind read.
struct FieldSlots {
    private var slots: [String: Int] = [:]

    var count: Int { slots.count }

    mutating func slot(for field: String) -> Int {
        if let slot = slots[field] { return slot }
        slots[field] = slots.count
        return slots.count - 1
    }
}

/// One item's field values, each derived the first time a condition reads it.
///
/// A field's value depends only on the item, its repository and the clock, never on the rule,
/// so rules testing `labels` or `idle` of the same item share one derivation.
struct FieldValues {
    private var values: [FieldValue?]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    mutating func value(at slot: Int, derive: () -> FieldValue) -> FieldValue {
        if let known = values[slot] { return known }
        let value = derive()
        values[slot] = value
        return value
    }
}

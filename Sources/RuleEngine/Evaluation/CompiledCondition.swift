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
        /// The field's range from cheaper reads, when it has one and the predicate is an order
        /// comparison, the one kind a range can decide (``FieldBounds``).
        let bounds: (@Sendable (ItemContext) -> FieldBounds.Range?)?
        let boundsNeeds: ReadNeed.Mask
        let predicate: Predicate
        let isNegated: Bool
        let text: String
        let field: String
        let location: String
        /// The labels a label-set condition names, sorted as a set displays them, when its result
        /// shows which of them the item carries rather than the whole set
        /// (``CompiledCondition/init(_:kind:registry:namedLabelsOnly:)``).
        let namedLabels: [String]?
        /// What every such result ends with, ` of [pinned, stale]`, written once.
        let namedLabelsSuffix: String

        init(
            _ condition: CheckedCondition, at location: SourceLocation, kind: ItemKind, registry: PluginRegistry,
            slots: inout FieldSlots, namedLabelsOnly: Bool
        ) {
            let field = registry.field(condition.field.name, for: kind)
            let named = namedLabelsOnly && field?.type == .labelSet ? Self.names(in: condition.predicate) : nil
            namedLabels = named?.sorted()
            namedLabelsSuffix = named.map { " of " + FieldValue.set($0).display } ?? ""
            value = field?.value
            slot = slots.slot(for: condition.field.name)
            needs = registry.mask(field?.needs ?? [])
            if case .order = condition.predicate, let fieldBounds = field?.bounds {
                bounds = fieldBounds.range
                boundsNeeds = registry.mask(fieldBounds.needs)
            } else {
                bounds = nil
                boundsNeeds = []
            }
            predicate = condition.predicate
            isNegated = condition.expression.isNegated
            text = condition.expression.text
            self.field = condition.field.name
            self.location = location.description
        }

        /// Whether the condition holds for the item; `nil` when its field is not read and no range
        /// of it decides the condition.
        ///
        /// The verdict alone, for deciding: ``result(_:values:)`` also writes what the check saw,
        /// which only the entries' results need.
        func holds(_ context: ItemContext, values: inout FieldValues) -> Bool? {
            guard let value else { return nil }
            guard context.knows(needs) else {
                return range(context).flatMap { decision(by: $0, context, patterns: values.patterns) }
            }
            let observed = values.value(at: slot) { value(context) }
            return predicate.holds(for: observed, me: context.me, patterns: values.patterns) != isNegated
        }

        /// The verdict ``holds(_:values:)`` gives, with what the result records the check saw:
        /// the value (``shown(_:)``), the range that decided it unread as its ends
        /// (`61d 3h to 1y 2d`), or `(not read)`.
        ///
        /// Written here rather than handed out as an enum of value or range, which every recorded
        /// test made, copied and dropped at a cost profiles showed beside the text's own. A range
        /// is never kept among the item's values: another condition on the field may need the value.
        func result(_ context: ItemContext, values: inout FieldValues) -> (holds: Bool?, observed: String) {
            guard let value else { return (nil, Self.unread) }
            guard context.knows(needs) else {
                guard let range = range(context), let holds = decision(by: range, context, patterns: values.patterns)
                else {
                    return (nil, Self.unread)
                }
                return (holds, range.display)
            }
            let observed = values.value(at: slot) { value(context) }
            let holds = predicate.holds(for: observed, me: context.me, patterns: values.patterns)
            return (holds != isNegated, shown(observed))
        }

        /// What a result records of a condition left undecided for want of a read.
        private static let unread = "(not read)"

        /// The field's range from cheaper reads; `nil` when it has none or they are not read.
        private func range(_ context: ItemContext) -> FieldBounds.Range? {
            guard let bounds, context.knows(boundsNeeds) else { return nil }
            return bounds(context)
        }

        /// The verdict the whole of `range` gives; `nil` when its ends disagree.
        private func decision(by range: FieldBounds.Range, _ context: ItemContext, patterns: Patterns) -> Bool? {
            let lower = predicate.holds(for: range.lower, me: context.me, patterns: patterns)
            let upper = predicate.holds(for: range.upper, me: context.me, patterns: patterns)
            return lower == upper ? lower != isNegated : nil
        }

        /// What the result records of a value: a label set as the labels the condition names that
        /// it carries, `[stale] of [pinned, stale]`, when ``namedLabels`` are set.
        private func shown(_ value: FieldValue) -> String {
            guard let namedLabels, case .set(let names) = value else { return value.display }
            return "[" + namedLabels.filter(names.contains).joined(separator: ", ") + "]" + namedLabelsSuffix
        }

        /// The label names a set predicate tests, each once; `nil` for any other predicate.
        private static func names(in predicate: Predicate) -> [String]? {
            switch predicate {
            case .hasAll(let literals), .hasAny(let literals), .lacksAll(let literals):
                var names: [String] = []
                for case .text(let name) in literals where !names.contains(name) { names.append(name) }
                return names
            default:
                return nil
            }
        }
    }

    /// One node of the tree, in prefix order: a block's parts follow it up to its subtree's end.
    ///
    /// A flat array of plain values rather than a tree of boxes: walking it retains nothing,
    /// where each visit of an indirect enum node retained and released it.
    enum Operation: Sendable, Equatable {
        case all
        case any
        case not
        /// The test at this index of ``tests``.
        case test(Int)
    }

    private let operations: [Operation]
    /// For each operation, the index just past its subtree, where its next sibling starts.
    private let ends: [Int]
    private let tests: [Test]
    /// How many results ``evaluate(_:results:)`` records.
    var testCount: Int { tests.count }
    /// How many slots the item's ``FieldValues`` need; more than this tree's own fields when the
    /// slots are shared with other rules.
    private let slotCount: Int

    /// The condition on its own, for judging one item at a time.
    ///
    /// With `namedLabelsOnly`, the results of label-set conditions show which of the labels each
    /// names the item carries (`[stale] of [pinned, stale]`), not the whole set, as a plan records
    /// them: a run learns labels by `label:` queries for the names the rules test, so what it
    /// knows of the rest depends on which details it read afresh, and a record of it would differ
    /// between a cold and a warm read cache, or between a run and its snapshot. `explain` shows
    /// the whole set.
    public init(_ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry, namedLabelsOnly: Bool = false) {
        var slots = FieldSlots()
        self.init(tree, kind: kind, registry: registry, slots: &slots, namedLabelsOnly: namedLabelsOnly)
    }

    /// The condition with its fields' slots taken from `slots`, shared with the other rules of
    /// the kind, so that one item's ``FieldValues`` serve them all.
    init(
        _ tree: ConditionTree, kind: ItemKind, registry: PluginRegistry, slots: inout FieldSlots,
        namedLabelsOnly: Bool = false
    ) {
        var operations: [Operation] = []
        var ends: [Int] = []
        var tests: [Test] = []
        func add(_ tree: ConditionTree) {
            let index = operations.count
            ends.append(index + 1)
            switch tree {
            case .all(let parts):
                operations.append(.all)
                parts.forEach(add)
            case .any(let parts):
                operations.append(.any)
                parts.forEach(add)
            case .not(let part):
                operations.append(.not)
                add(part)
            case .test(let condition, let location):
                operations.append(.test(tests.count))
                tests.append(
                    Test(
                        condition, at: location, kind: kind, registry: registry, slots: &slots,
                        namedLabelsOnly: namedLabelsOnly))
            }
            ends[index] = operations.count
        }
        add(tree)
        self.operations = operations
        self.ends = ends
        self.tests = tests
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
        var results: [ConditionResult]? = nil
        return verdict(0, context, values: &values, recording: &results)
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
        // Moved into the optional and back, so the caller's reserved capacity is kept, not copied.
        var recording: [ConditionResult]? = results
        results = []
        let holds = verdict(0, context, values: &values, recording: &recording)
        results = recording ?? []
        return holds
    }

    /// The verdict of the subtree at `index`: when `recording` is `nil`, a block stops at its
    /// first decisive part (false for `all`, true for `any`); otherwise every condition is tested
    /// and appended to it, with the same verdict.
    private func verdict(
        _ index: Int, _ context: ItemContext, values: inout FieldValues, recording: inout [ConditionResult]?
    ) -> Bool? {
        switch operations[index] {
        case .all, .any:
            // `all` is settled by a false part, `any` by a true one; an unknown part leaves the
            // block unknown unless a settling part comes.
            let settling = operations[index] == .any
            var verdict: Bool? = !settling
            var part = index + 1
            while part < ends[index] {
                switch self.verdict(part, context, values: &values, recording: &recording) {
                case settling:
                    guard recording != nil else { return settling }
                    verdict = settling
                case nil where verdict == !settling:
                    verdict = nil
                default:
                    break
                }
                part = ends[part]
            }
            return verdict
        case .not:
            return self.verdict(index + 1, context, values: &values, recording: &recording).map { !$0 }
        case .test(let index):
            let test = tests[index]
            guard recording != nil else { return test.holds(context, values: &values) }
            let result = test.result(context, values: &values)
            recording?.append(
                ConditionResult(
                    condition: test.text, field: test.field, observed: result.observed, holds: result.holds,
                    location: test.location))
            return result.holds
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
    /// The `~=` patterns compiled so far, shared by all the items of one plan.
    let patterns: Patterns

    init(count: Int, patterns: Patterns = Patterns()) {
        values = Array(repeating: nil, count: count)
        self.patterns = patterns
    }

    mutating func value(at slot: Int, derive: () -> FieldValue) -> FieldValue {
        if let known = values[slot] { return known }
        let value = derive()
        values[slot] = value
        return value
    }
}

/// Regular expressions compiled once for a whole plan instead of once per item: compiling took
/// 25 to 45 µs, several times the rest of testing a condition.
///
/// A class holding non-`Sendable` regexes, so it lives inside one evaluation and is never shared
/// between threads.
final class Patterns {
    private var compiled: [String: Regex<AnyRegexOutput>?] = [:]

    func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let known = compiled[pattern] { return known }
        let regex = try? Regex(pattern)
        compiled[pattern] = regex
        return regex
    }
}

import YAML

/// A rule's condition prepared once for evaluating many items: fields looked up, needs as bits,
/// and the text and location each result reports already written.
///
/// Evaluating 50 rules over 100,000 items tests millions of conditions; looking a field up by
/// name, hashing its needs and formatting its location for every one of them was most of the cost.
/// Conditions compiled against shared ``FieldSlots`` also share each item's ``FieldValues``, so
/// rules testing the same field of the same item derive it once.
public struct CompiledCondition: Sendable {
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
        var judge = Deciding()
        return verdict(0, context, values: &values, judge: &judge)
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
        // Moved into the judge and back, so the caller's reserved capacity is kept, not copied.
        var judge = Recording(results: results)
        results = []
        let holds = verdict(0, context, values: &values, judge: &judge)
        results = judge.results
        return holds
    }

    /// The fields the condition waits on for the item, when it does not hold only because the
    /// item has no value of them: fields a rule waits on while absent
    /// (``FieldDefinition/absenceWaits``) or whose value nobody can say (``FieldValue/unknown``).
    ///
    /// Asked only of an item the condition rejects: it is decided again with those tests taken
    /// as unknown, and if the verdict is then open, a value coming would change it. `nil` when
    /// the condition fails whatever they say.
    public func waitedFields(_ context: ItemContext) -> [String]? {
        var values = FieldValues(count: slotCount)
        return waitedFields(context, values: &values)
    }

    /// ``waitedFields(_:)``, reusing the item's field values.
    ///
    /// Only the fields the verdict needs are named: one whose test a settled block makes moot
    /// (`label_age.stale > 14d` beside `label_age.stale is absent` under `any`) is dropped, one at
    /// a time, while the verdict stays open without it.
    func waitedFields(_ context: ItemContext, values: inout FieldValues) -> [String]? {
        var judge = Waiting(only: nil)
        guard verdict(0, context, values: &values, judge: &judge) == nil, !judge.fields.isEmpty else { return nil }
        var needed = judge.fields
        for field in judge.fields where needed.count > 1 {
            var without = Waiting(only: needed.filter { $0 != field })
            if verdict(0, context, values: &values, judge: &without) == nil {
                needed.removeAll { $0 == field }
            }
        }
        return needed
    }

    /// The verdict of the subtree at `index`, each condition judged by `judge`: a block stops at
    /// its first decisive part (false for `all`, true for `any`) unless the judge records every
    /// condition, which gives the same verdict.
    ///
    /// Generic rather than taking a closure, so each judge gets a copy of the walk of its own:
    /// deciding 100,000 items tests millions of conditions.
    private func verdict<Judge: ConditionJudge>(
        _ index: Int, _ context: ItemContext, values: inout FieldValues, judge: inout Judge
    ) -> Bool? {
        switch operations[index] {
        case .all, .any:
            // `all` is settled by a false part, `any` by a true one; an unknown part leaves the
            // block unknown unless a settling part comes.
            let settling = operations[index] == .any
            var verdict: Bool? = !settling
            var part = index + 1
            while part < ends[index] {
                switch self.verdict(part, context, values: &values, judge: &judge) {
                case settling:
                    guard Judge.testsEveryCondition else { return settling }
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
            return self.verdict(index + 1, context, values: &values, judge: &judge).map { !$0 }
        case .test(let index):
            return judge.judge(tests[index], context, values: &values)
        }
    }
}

/// How ``CompiledCondition`` judges each of its conditions on one item.
private protocol ConditionJudge {
    /// Whether every condition is judged, even past a block's decisive part.
    static var testsEveryCondition: Bool { get }
    mutating func judge(
        _ test: CompiledCondition.Test, _ context: ItemContext, values: inout FieldValues
    ) -> Bool?
}

/// The verdict alone, with the fewest tests.
private struct Deciding: ConditionJudge {
    static var testsEveryCondition: Bool { false }

    func judge(_ test: CompiledCondition.Test, _ context: ItemContext, values: inout FieldValues) -> Bool? {
        test.holds(context, values: &values)
    }
}

/// Every condition's result, in order, for a plan entry or `explain`.
private struct Recording: ConditionJudge {
    var results: [ConditionResult]
    static var testsEveryCondition: Bool { true }

    mutating func judge(_ test: CompiledCondition.Test, _ context: ItemContext, values: inout FieldValues) -> Bool? {
        let result = test.result(context, values: &values)
        results.append(
            ConditionResult(
                condition: test.text, field: test.field, observed: result.observed, holds: result.holds,
                location: test.location))
        return result.holds
    }
}

/// The verdict once the values the rule waits on come, with the fields taken as unknown for it.
private struct Waiting: ConditionJudge {
    /// The fields whose missing values are taken as unknown: `nil` for every one the rule waits on.
    let only: [String]?
    /// The fields whose tests were taken as unknown, in the order met.
    var fields: [String] = []
    static var testsEveryCondition: Bool { false }

    mutating func judge(_ test: CompiledCondition.Test, _ context: ItemContext, values: inout FieldValues) -> Bool? {
        guard only?.contains(test.field) ?? true else { return test.holds(context, values: &values) }
        let holds = test.holdsOnceKnown(context, values: &values)
        if holds == nil, test.holds(context, values: &values) != nil, !fields.contains(test.field) {
            fields.append(test.field)
        }
        return holds
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

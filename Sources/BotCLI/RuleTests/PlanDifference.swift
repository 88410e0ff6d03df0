/// How a plan's pending entries differ from a rule test's expectations, matched by rule and item.
///
/// Entries pair up by (rule, item) whatever their order, so the lines say exactly what to change:
/// an expected entry the plan lacks, a planned one nobody expected, or the right entry with other actions.
struct PlanDifference: Sendable, Hashable {
    /// The expected rule and item were planned with other pending actions.
    struct Mismatch: Sendable, Hashable {
        var expected: RuleTestEntry
        var planned: RuleTestEntry
    }

    /// Expected but not planned.
    var missing: [RuleTestEntry]
    /// Planned but not expected.
    var unexpected: [RuleTestEntry]
    /// Planned for the expected rule and item, with other pending actions.
    var different: [Mismatch]

    init(expected: [RuleTestEntry], planned: [RuleTestEntry]) {
        let plannedByKey = Dictionary(planned.map { (Key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let expectedKeys = Set(expected.map(Key.init))
        missing = expected.filter { plannedByKey[Key($0)] == nil }.sorted()
        unexpected = planned.filter { !expectedKeys.contains(Key($0)) }.sorted()
        different = expected.compactMap { entry in
            guard let plan = plannedByKey[Key(entry)], plan.actions != entry.actions else { return nil }
            return Mismatch(expected: entry, planned: plan)
        }.sorted { $0.expected < $1.expected }
    }

    /// Whether the plan is exactly what the test expects.
    var isEmpty: Bool { missing.isEmpty && unexpected.isEmpty && different.isEmpty }

    /// One line per difference: missing first, then unexpected, then different.
    var lines: [String] {
        missing.map { "missing:    \($0)" } + unexpected.map { "unexpected: \($0)" }
            + different.map {
                "different:  \($0.expected.rule) on \($0.expected.item): expected "
                    + "\(RuleTestEntry.list($0.expected.actions)), planned \(RuleTestEntry.list($0.planned.actions))"
            }
    }

    /// The identity entries are matched by.
    private struct Key: Hashable {
        var rule: String
        var item: String

        init(_ entry: RuleTestEntry) {
            rule = entry.rule
            item = entry.item
        }
    }
}

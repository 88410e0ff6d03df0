import RuleEngine

/// A plan entry reduced to what a rule test states about it: which rule, which item, and the names
/// of its pending actions in the order they run.
///
/// Commands, reasons and texts are left out on purpose, so a reworded comment does not break a test
/// about what the rules decide.
struct RuleTestEntry: Sendable, Hashable, Comparable, CustomStringConvertible {
    var rule: String
    /// The item as a plan refers to it: `owner/name#12`, `owner/name!12`, `owner/name/builds/4213`.
    var item: String
    var actions: [String]

    /// Every entry of `plan` with at least one pending action.
    static func pending(in plan: Plan) -> [RuleTestEntry] {
        plan.entries.compactMap { entry in
            let actions = entry.actions.filter { $0.status == .pending }.map(\.action)
            guard !actions.isEmpty else { return nil }
            return RuleTestEntry(rule: entry.rule, item: entry.item.reference, actions: actions)
        }
    }

    /// `mark-stale on krz/gitbay#31 [add-label, comment]`.
    var description: String { "\(rule) on \(item) \(Self.list(actions))" }

    /// `[add-label, comment]`.
    static func list(_ actions: [String]) -> String { "[\(actions.joined(separator: ", "))]" }

    /// Orders by rule, then item, so differences print in a stable order.
    static func < (lhs: RuleTestEntry, rhs: RuleTestEntry) -> Bool {
        (lhs.rule, lhs.item) < (rhs.rule, rhs.item)
    }
}

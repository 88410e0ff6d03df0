import YAML

/// A rule's `when:`, checked: conditions combined with `all`, `any` and `not`.
///
/// The top-level list is an `all`; blocks nest to any depth for everything else.
public indirect enum ConditionTree: Sendable, Hashable {
    case all([ConditionTree])
    case any([ConditionTree])
    case not(ConditionTree)
    /// One condition, with where its text starts in the rule file.
    case test(CheckedCondition, SourceLocation)

    /// Every single condition in the tree, in source order.
    public var tests: [CheckedCondition] {
        switch self {
        case .all(let trees), .any(let trees): return trees.flatMap(\.tests)
        case .not(let tree): return tree.tests
        case .test(let condition, _): return [condition]
        }
    }
}

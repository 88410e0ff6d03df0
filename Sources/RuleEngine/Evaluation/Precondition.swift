/// A rule's conditions in a form a saved plan can carry and `apply` can check again.
///
/// Conditions are kept as their text and re-checked with the plugins' fields when applied, so a
/// plan stays readable and `apply` needs no rule files.
public indirect enum Precondition: Sendable, Hashable, Codable {
    case all([Precondition])
    case any([Precondition])
    case not(Precondition)
    case condition(String)

    public init(_ tree: ConditionTree) {
        switch tree {
        case .all(let trees): self = .all(trees.map(Precondition.init))
        case .any(let trees): self = .any(trees.map(Precondition.init))
        case .not(let tree): self = .not(Precondition(tree))
        case .test(let condition, _): self = .condition(condition.expression.text)
        }
    }
}

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

extension Precondition {
    private enum Key: String, CodingKey {
        case all
        case any
        case not
    }

    /// A condition is its text; a block is `{"all": [...]}`, `{"any": [...]}` or `{"not": ...}`,
    /// the same shape a rule file gives it.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .condition(text)
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        if let parts = try container.decodeIfPresent([Precondition].self, forKey: .all) {
            self = .all(parts)
        } else if let parts = try container.decodeIfPresent([Precondition].self, forKey: .any) {
            self = .any(parts)
        } else if let part = try container.decodeIfPresent(Precondition.self, forKey: .not) {
            self = .not(part)
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a condition, all, any or not"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .condition(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .all(let parts):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(parts, forKey: .all)
        case .any(let parts):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(parts, forKey: .any)
        case .not(let part):
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(part, forKey: .not)
        }
    }
}

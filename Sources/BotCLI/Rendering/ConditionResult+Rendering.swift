import RuleEngine

extension ConditionResult {
    /// `✓` held, `✗` did not hold, `?` not known because the value was not read.
    var mark: String {
        switch holds {
        case true: return "✓"
        case false: return "✗"
        case nil: return "?"
        }
    }

    /// The reason wording of `history` and the status page: `idle > 60d (61d 3h)`.
    var reasonDescription: String { "\(condition) (\(observed))" }

    /// The nearest-miss wording: `idle > 60d: idle is 29d 4h`.
    var missDescription: String { "\(condition): \(field) is \(observed)" }
}

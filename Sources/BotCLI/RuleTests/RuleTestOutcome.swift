/// The verdict on one rule test.
enum RuleTestOutcome: Sendable, Hashable {
    /// The plan's pending entries are exactly the expected ones.
    case passed
    /// The plan differs from the expectations, as the difference says.
    case failed(PlanDifference)
    /// The test file, its forge or its rules are invalid; each diagnostic is rendered with its
    /// `file:line:column`, source line and caret.
    case invalid([String])
}

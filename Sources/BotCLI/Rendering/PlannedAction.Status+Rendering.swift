import RuleEngine

extension PlannedAction.Status {
    /// The one-character mark of the text output, documented in docs/plan-format.md.
    var mark: String {
        switch self {
        case .pending: return "+"
        case .alreadyDone: return "="
        case .refused: return "!"
        case .held: return "~"
        case .waiting: return "."
        case .invalid: return "x"
        }
    }

    /// The status in words, for lines that have no command to show.
    var words: String {
        switch self {
        case .pending: return "pending"
        case .alreadyDone: return "already done"
        case .refused: return "refused"
        case .held: return "held back"
        case .waiting: return "waiting"
        case .invalid: return "invalid"
        }
    }

    /// What a note on this status is, when it stands on its own line under a command.
    var noteLabel: String { self == .pending ? "warning" : words }
}

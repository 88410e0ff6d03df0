import GitbayKit
import YAML

/// What a merge request's change to its repository's rules file would change in what the bot
/// does there: the proposed file's errors, or the commands the new rules would send that the
/// current ones would not, and those they would no longer send.
///
/// Both rule sets are planned on one read of the repository, so the difference is the rules'
/// alone. A command is the same when its argv and its input are: which rule sends it, and why, are
/// shown, not compared, so renaming a rule changes nothing here.
public enum RulePreview: Sendable, Hashable {
    /// The proposed file cannot be used: its errors, first first.
    case invalid([Diagnostic])
    /// The proposed rules are valid; what they would send that the current ones would not, and the reverse.
    case changes(added: [Line], removed: [Line])

    /// One command a rule set would send on one item, with the rule and the reasons.
    public struct Line: Sendable, Hashable {
        /// The item's reference, `owner/name#7` or `owner/name!7`.
        public var item: String
        public var rule: String
        public var argv: [String]
        /// The input the command is sent with (a comment's body); `nil` for none.
        public var stdin: String?
        /// Each condition as written, with the value that satisfied it.
        public var reasons: [String]

        public init(item: String, rule: String, argv: [String], stdin: String? = nil, reasons: [String] = []) {
            self.item = item
            self.rule = rule
            self.argv = argv
            self.stdin = stdin
            self.reasons = reasons
        }

        /// What makes two lines the same command.
        var command: [String] { argv + [stdin ?? ""] }
    }

    /// The difference between the commands `current` and `proposed` (plans of one repository's
    /// rules on one state) would send, each side in its plan's order.
    public static func compare(current: Plan, proposed: Plan) -> RulePreview {
        let before = lines(of: current)
        let after = lines(of: proposed)
        let had = Set(before.map(\.command))
        let has = Set(after.map(\.command))
        return .changes(
            added: after.filter { !had.contains($0.command) }, removed: before.filter { !has.contains($0.command) })
    }

    /// Every pending command of `plan`, with its entry's rule and reasons.
    static func lines(of plan: Plan) -> [Line] {
        plan.entries.flatMap { entry in
            entry.actions.compactMap { action -> Line? in
                guard action.status == .pending, let command = action.command else { return nil }
                return Line(
                    item: entry.item.reference, rule: entry.rule, argv: command.argv, stdin: command.stdin,
                    reasons: entry.reasons.map { "\($0.condition) (\($0.observed))" })
            }
        }
    }

    /// The first error of an invalid proposal; `nil` for valid ones.
    public var firstError: Diagnostic? {
        guard case .invalid(let errors) = self else { return nil }
        return errors.first
    }
}

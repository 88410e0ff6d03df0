import RuleEngine

/// The outcome of applying a plan, for people.
enum ApplyReportRenderer {
    /// How many `held:` lines are printed per rule; the rest are counted.
    ///
    /// A cron run behind a tripwire or a limit holds thousands of actions run after run, and a
    /// log of 2,000 `held:` lines hides the few that matter; the plan text lists as many
    /// (``PlanRenderer/heldListed``).
    static let heldListed = PlanRenderer.heldListed

    static func text(_ report: ApplyReport) -> String {
        guard !report.outcomes.isEmpty else { return "applied nothing: nothing to do\n" }
        var text = ""
        var heldSeen: [String: Int] = [:]
        for outcome in report.outcomes {
            if outcome.status == .held {
                heldSeen[outcome.rule, default: 0] += 1
                guard heldSeen[outcome.rule, default: 0] <= heldListed else { continue }
            }
            text += "\(outcome.status.rawValue): \(outcome.rule) \(outcome.action) on \(outcome.item)"
            if let detail = outcome.detail { text += " (\(detail))" }
            text += "\n"
        }
        for (rule, count) in heldSeen.sorted(by: { $0.key < $1.key }) where count > heldListed {
            text += "held: \(count - heldListed) more actions of \(rule), as above; every one: plan -o FILE\n"
        }
        let counts = ApplyOutcome.Status.allCases.compactMap { status -> String? in
            let count = report.count(status)
            return count == 0 ? nil : "\(count) \(status.rawValue)"
        }
        text += counts.joined(separator: ", ")
        text += report.interrupted ? "; stopped: nothing was sent after the stop\n" : "\n"
        return text
    }
}

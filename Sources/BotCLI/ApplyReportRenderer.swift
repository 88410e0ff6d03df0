import RuleEngine

/// The outcome of applying a plan, for people.
enum ApplyReportRenderer {
    static func text(_ report: ApplyReport) -> String {
        guard !report.outcomes.isEmpty else { return "applied nothing: nothing to do\n" }
        var text = ""
        for outcome in report.outcomes {
            text += "\(outcome.status.rawValue): \(outcome.rule) \(outcome.action) on \(outcome.item)"
            if let detail = outcome.detail { text += " (\(detail))" }
            text += "\n"
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

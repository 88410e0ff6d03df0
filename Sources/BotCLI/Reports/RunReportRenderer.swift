import Foundation
import GitbayClient
import RuleEngine

/// Renders a ``RunReport`` as Markdown for CI job summaries and the summary issue.
///
/// Everything other people wrote (rule descriptions, item titles, server messages) goes through
/// ``MarkdownText`` so it cannot break the tables or mention anyone.
enum RunReportRenderer {
    /// At most this many "not done" lines, so a report stays far below gitbay's 64 KiB body limit.
    static let maximumListed = 50

    static func markdown(_ report: RunReport) -> String {
        let plan = report.plan
        let when = plan.evaluatedAt.formatted(Date.ISO8601FormatStyle())
        var text = "## gitbay-bot \(report.applied == nil ? "dry run" : "run")\n\n"
        text += "Evaluated at \(when) on \(MarkdownText.escape(plan.source)) as \(MarkdownText.escape(plan.me)); "
        text += "exit \(report.exitCode.rawValue) (\(meaning(report.exitCode))).\n\n"
        text += ruleTable(report)
        text += waitingForValues(plan)
        text += notDone(report)
        if !plan.guards.isEmpty {
            text += "\n### Guards\n\n"
            for guardText in plan.guards { text += "- \(MarkdownText.escape(guardText))\n" }
        }
        if let metrics = report.metrics {
            text += "\n### Requests\n\n"
            text += "| reads | writes | retries | 429s | 503s | too many writes | waited |\n"
            text += "| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
            text += "| \(metrics.reads) | \(metrics.writes) | \(metrics.retries) | \(metrics.rateLimitedResponses) "
            text += "| \(metrics.busyResponses) | \(metrics.tooManyWritesResponses) | \(waits(metrics)) |\n"
        }
        return text
    }

    /// One row per rule: what it looked at, matched, did, and what it left undone.
    ///
    /// `held` counts what a guard held back, `waiting` what waits for its rule's schedule window,
    /// as `run` names them: from the apply step's outcomes, or in a dry run from the plan and the
    /// rule's schedule at the evaluation's instant.
    private static func ruleTable(_ report: RunReport) -> String {
        let actedHeader = report.applied == nil ? "would act" : "acted"
        var text =
            "| rule | kind | considered | matched | \(actedHeader) | already done | skipped | held | waiting | failed |\n"
        text += "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for rule in report.plan.rules {
            let actions = report.plan.entries.filter { $0.rule == rule.name }.flatMap(\.actions)
            let planned = { (status: PlannedAction.Status) in actions.filter { $0.status == status }.count }
            let outcomes = report.applied?.outcomes.filter { $0.rule == rule.name } ?? []
            let outcome = { (status: ApplyOutcome.Status) in outcomes.filter { $0.status == status }.count }
            let acted = report.applied == nil ? planned(.pending) : outcome(.applied)
            let alreadyDone = planned(.alreadyDone) + outcome(.alreadyDone)
            let skipped = planned(.refused) + planned(.invalid) + outcome(.skipped) + outcome(.notRun)
            let closed = waitsForItsWindow(rule.name, in: report.plan)
            let held = report.applied == nil ? (closed ? 0 : planned(.held)) : outcome(.held)
            let waiting = report.applied == nil ? (closed ? planned(.held) : 0) : outcome(.waiting)
            text += "| \(MarkdownText.escape(rule.name)) | \(rule.kind.rawValue) | \(rule.considered) "
            text += "| \(rule.matched) | \(acted) | \(alreadyDone) | \(skipped) | \(held) | \(waiting) "
            text += "| \(outcome(.failed)) |\n"
        }
        return text
    }

    /// The rules that wait on items for a value not there yet (``Plan/Waiting``), so a scheduled
    /// run's report says what never moves without someone's help; empty when none do.
    private static func waitingForValues(_ plan: Plan) -> String {
        let lines = plan.rules.compactMap { rule in
            rule.waiting.map {
                "- **\(MarkdownText.escape(rule.name))**: " + MarkdownText.escape(PlanRenderer.waitingLine($0))
            }
        }
        guard !lines.isEmpty else { return "" }
        return "\n### Waiting for a value\n\n" + lines.joined(separator: "\n") + "\n"
    }

    /// Whether the rule named `rule` is outside its schedule at the plan's instant, so what it
    /// holds back only waits for the window (a dry run's `waiting`).
    private static func waitsForItsWindow(_ rule: String, in plan: Plan) -> Bool {
        plan.rules.first { $0.name == rule }?.schedule?.heldNote(at: plan.evaluatedAt) != nil
    }

    /// Every action not done, with the reason: refused or invalid when planning, then held,
    /// waiting, skipped, failed or not run when applying (in a dry run, held or waiting as planned).
    private static func notDone(_ report: RunReport) -> String {
        var lines: [String] = []
        let planned: Set<PlannedAction.Status> =
            report.applied == nil ? [.refused, .invalid, .held] : [.refused, .invalid]
        for entry in report.plan.entries {
            for action in entry.actions where planned.contains(action.status) {
                let waits = action.status == .held && waitsForItsWindow(entry.rule, in: report.plan)
                lines.append(
                    line(
                        status: waits ? ApplyOutcome.Status.waiting.rawValue : action.status.rawValue, rule: entry.rule,
                        action: action.action, item: entry.item.reference, reason: action.note))
            }
        }
        let applied: Set<ApplyOutcome.Status> = [.held, .waiting, .skipped, .failed, .notRun]
        for outcome in report.applied?.outcomes ?? [] where applied.contains(outcome.status) {
            lines.append(
                line(
                    status: outcome.status.rawValue, rule: outcome.rule, action: outcome.action, item: outcome.item,
                    reason: outcome.detail))
        }
        guard !lines.isEmpty else { return "" }
        var text = "\n### Not done, and why\n\n"
        text += lines.prefix(maximumListed).joined()
        if lines.count > maximumListed {
            text += "- … and \(lines.count - maximumListed) more (see the job's log)\n"
        }
        return text
    }

    private static func line(status: String, rule: String, action: String, item: String, reason: String?) -> String {
        var text = "- **\(status)**: \(MarkdownText.escape(rule)) \(MarkdownText.escape(action)) on "
        text += MarkdownText.escape(item)
        if let reason { text += ": \(MarkdownText.escape(reason))" }
        return text + "\n"
    }

    private static func waits(_ metrics: ClientMetrics) -> String {
        let parts = [
            ("pacing", metrics.pacingWait), ("server", metrics.serverWait), ("backoff", metrics.backoffWait),
        ]
        .filter { $0.1 > .zero }
        .map { "\($0.0) \(seconds($0.1)) s" }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration.seconds)
    }

    private static func meaning(_ code: BotExitCode) -> String {
        switch code {
        case .ok: return "done"
        case .failure: return "failure"
        case .pending: return "actions pending"
        case .incomplete: return "incomplete; the next run finishes it"
        case .usage: return "usage"
        case .unavailable: return "the server cannot be reached"
        case .temporaryFailure: return "rate-limited or busy; run again later"
        case .invalidRules: return "invalid rules"
        case .ioError: return "a file could not be written"
        case .hangup: return "stopped by SIGHUP"
        case .interrupted: return "interrupted"
        case .terminated: return "stopped by SIGTERM"
        }
    }
}

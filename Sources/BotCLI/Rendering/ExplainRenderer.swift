import GitbayKit
import RuleEngine

/// Renders an ``Explanation`` as text, JSON or Markdown, alongside ``PlanRenderer``.
public enum ExplainRenderer {
    /// The explanation for a terminal: each rule's verdict, its nearest miss, conditions and actions.
    public static func text(_ explanation: Explanation, noun: String, colour: Bool, width: Int = 80) -> String {
        let style = TextStyle(colour: colour)
        let blocks = TextBlocks(style: style, width: width)
        var lines = [
            "explain " + blocks.item(explanation.item, indent: 0),
            "state of \(DisplayText.visible(explanation.source)) as \(DisplayText.visible(explanation.me)), "
                + "evaluated at \(GitbayTimestamp.format(explanation.evaluatedAt, precision: .milliseconds))",
        ]
        for rule in explanation.rules {
            lines.append("")
            lines.append(style.bold(DisplayText.visible(rule.name)) + " (\(rule.location)): " + verdict(rule))
            if let description = rule.description {
                lines.append("  " + DisplayText.visible(description))
            }
            guard rule.inScope else { continue }
            if let schedule = rule.schedule {
                lines.append("  " + scheduleVerdict(schedule))
            }
            if let outside = rule.outsideListing {
                lines.append("  " + DisplayText.visible(outside))
            }
            if let miss = rule.nearestMiss {
                lines.append("  nearest miss: " + DisplayText.visible(miss.missDescription))
            }
            if let fields = rule.waitsOn {
                lines.append("  " + style.yellow(DisplayText.visible(waits(fields, noun: noun))))
            }
            lines += rule.conditions.map { blocks.condition($0, indent: 2, withLocation: true) }
            for action in rule.actions {
                lines += blocks.action(action, indent: 2)
            }
        }
        let guards = blocks.guards(explanation.guards)
        if !guards.isEmpty {
            lines.append("")
            lines += guards
        }
        lines.append("")
        lines.append(summary(explanation, noun: noun))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The explanation's Codable form, the `gitbay-bot-explain/1` schema.
    public static func json(_ explanation: Explanation) -> String {
        PlanJSON.encode(explanation)
    }

    /// The explanation as GitHub-flavoured Markdown: a verdict table, then one block per rule.
    public static func markdown(_ explanation: Explanation, noun: String) -> String {
        let item = explanation.item
        var lines = [
            "### gitbay-bot explain: \(MarkdownText.escape(item.reference))",
            "",
            MarkdownText.escape(item.title),
            "",
            "Evaluated at \(GitbayTimestamp.format(explanation.evaluatedAt, precision: .milliseconds)) against "
                + "\(MarkdownText.code(explanation.source)) as \(MarkdownText.code(explanation.me)).",
        ]
        if !explanation.rules.isEmpty {
            lines += ["", "| rule | location | verdict | nearest miss |", "| --- | --- | --- | --- |"]
            for rule in explanation.rules {
                let miss = rule.nearestMiss.map { MarkdownText.escape($0.missDescription) } ?? ""
                lines.append(
                    "| \(MarkdownText.escape(rule.name)) | \(MarkdownText.escape(rule.location)) | \(verdict(rule)) "
                        + "| \(miss) |")
            }
        }
        for rule in explanation.rules where rule.inScope {
            lines += [
                "",
                "<details>",
                "<summary><strong>\(MarkdownText.html(rule.name))</strong>: \(verdict(rule))</summary>",
                "",
            ]
            if let description = rule.description {
                lines += [MarkdownText.escape(description), ""]
            }
            if let schedule = rule.schedule {
                lines += [MarkdownText.escape(scheduleVerdict(schedule)), ""]
            }
            if let outside = rule.outsideListing {
                lines += [MarkdownText.escape(outside), ""]
            }
            if let fields = rule.waitsOn {
                lines += [MarkdownText.escape(waits(fields, noun: noun)), ""]
            }
            lines += rule.conditions.map { "- " + PlanRenderer.markdownCondition($0) }
            lines += rule.actions.flatMap { PlanRenderer.markdownAction($0, indent: "") }
            lines += ["", "</details>"]
        }
        if !explanation.guards.isEmpty {
            lines += ["", "> **Guards tripped**", ">"]
            lines += explanation.guards.map { "> - " + MarkdownText.escape($0) }
        }
        lines += ["", "**\(summary(explanation, noun: noun))**"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `matched`, `not matched`, `unknown (a value was not read)` or `out of scope`.
    static func verdict(_ rule: Explanation.RuleResult) -> String {
        guard rule.inScope else { return "out of scope" }
        switch rule.verdict {
        case .matched: return "matched"
        case .notMatched: return "not matched"
        case .unknown: return "unknown (a value was not read)"
        }
    }

    /// What a rule waiting on absent values says: the rule stays put until they come, and what
    /// gives them (docs/rules.md, "Waiting from a notice or a label").
    static func waits(_ fields: [String], noun: String) -> String {
        "waits: the \(noun) has no value of \(fields.joined(separator: ", ")) yet; the rule may match once it "
            + "has one, and never acts before (docs/rules.md: Waiting from a notice or a label)"
    }

    /// `schedule (mon, tue 09:00-17:00 Europe/Berlin): outside it; next window Mon 2026-11-30 09:00 Europe/Berlin`.
    static func scheduleVerdict(_ schedule: Explanation.ScheduleResult) -> String {
        let verdict =
            schedule.open
            ? "inside it" : "outside it" + (schedule.nextWindow.map { "; next window \($0)" } ?? "")
        return "schedule (\(schedule.window)): \(verdict)"
    }

    /// `matched by 1 of 3 rules`, or `no rules for merge requests` when there are none.
    static func summary(_ explanation: Explanation, noun: String) -> String {
        guard !explanation.rules.isEmpty else {
            return "no rules for \(noun)s"
        }
        let matched = explanation.rules.filter { $0.inScope && $0.verdict == .matched }.count
        return "matched by \(matched) of \(DisplayText.counted(explanation.rules.count, "rule"))"
    }
}

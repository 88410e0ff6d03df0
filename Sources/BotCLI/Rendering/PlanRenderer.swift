import GitbayKit
import RuleEngine

/// Renders a ``Plan`` for people (text), for tools (JSON) and for CI pages (Markdown).
///
/// Pure functions of the plan: the commands decide where the text goes and whether the terminal
/// gets colour. The formats are described in docs/plan-format.md.
public enum PlanRenderer {
    /// The plan for a terminal or a log: grouped by rule, with counts, commands and reasons.
    ///
    /// - Parameters:
    ///   - colour: ANSI colour and bold; pass `true` only when writing to a terminal.
    ///   - width: the line width titles and stdin previews are cut to; commands are never cut.
    public static func text(_ plan: Plan, colour: Bool, width: Int = 80) -> String {
        let style = TextStyle(colour: colour)
        let blocks = TextBlocks(style: style, width: width)
        var lines = [
            "gitbay-bot plan of \(DisplayText.visible(plan.source)) as \(DisplayText.visible(plan.me)), "
                + "evaluated at \(GitbayTimestamp.format(plan.evaluatedAt, precision: .milliseconds))"
        ]
        let byRule = entriesByRule(plan)
        for rule in plan.rules {
            lines.append("")
            lines.append(style.bold(DisplayText.visible(rule.name)) + " (\(rule.kind.rawValue)): " + counts(rule))
            if let description = rule.description {
                lines.append("  " + DisplayText.visible(description))
            }
            if let note = rule.outsideSchedule {
                lines.append("  " + style.yellow(note))
            }
            if let waiting = rule.waiting {
                lines.append("  " + style.yellow(DisplayText.visible(waitingLine(waiting))))
            }
            let (shown, hidden) = listed(byRule[rule.name] ?? [])
            for entry in shown {
                lines.append(blocks.item(entry.item, indent: 2))
                for action in entry.actions {
                    lines += blocks.action(action, indent: 4)
                }
                if !entry.reasons.isEmpty {
                    lines.append("    because:")
                    lines += entry.reasons.map { blocks.condition($0, indent: 6) }
                }
            }
            if hidden > 0 {
                lines.append("  " + moreHeld(hidden))
            }
        }
        let guards = blocks.guards(plan.guards)
        if !guards.isEmpty {
            lines.append("")
            lines += guards
        }
        if let notes = plan.notes {
            lines.append("")
            lines += notes.map { "note: " + DisplayText.visible($0) }
        }
        lines.append("")
        lines.append(summary(plan))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plan's own Codable form, which is the documented `gitbay-bot-plan/1` schema.
    public static func json(_ plan: Plan) -> String {
        PlanJSON.encode(plan)
    }

    /// The plan as GitHub-flavoured Markdown for a CI job summary or a merge-request comment.
    ///
    /// A summary table first, then one collapsed `<details>` block per rule that matched anything.
    public static func markdown(_ plan: Plan) -> String {
        var lines = [
            "### gitbay-bot plan",
            "",
            "Evaluated at \(GitbayTimestamp.format(plan.evaluatedAt, precision: .milliseconds)) against "
                + "\(MarkdownText.code(plan.source)) as \(MarkdownText.code(plan.me)).",
        ]
        if !plan.rules.isEmpty {
            lines += ["", "| rule | kind | matched | acting | held |", "| --- | --- | ---: | ---: | ---: |"]
            for rule in plan.rules {
                lines.append(
                    "| \(MarkdownText.escape(rule.name)) | \(rule.kind.rawValue) | \(rule.matched) of \(rule.considered) "
                        + "| \(rule.acting) | \(rule.held) |")
            }
            let waiting = plan.rules.filter { $0.outsideSchedule != nil || $0.waiting != nil }
            if !waiting.isEmpty {
                lines.append("")
                lines += waiting.map { rule in
                    let notes = [rule.outsideSchedule, rule.waiting.map(waitingLine)].compactMap { $0 }
                    return "- **\(MarkdownText.escape(rule.name))**: "
                        + notes.map(MarkdownText.escape).joined(separator: "; ")
                }
            }
        }
        let byRule = entriesByRule(plan)
        for rule in plan.rules {
            let (entries, hidden) = listed(byRule[rule.name] ?? [])
            guard !entries.isEmpty else { continue }
            lines += [
                "",
                "<details>",
                "<summary><strong>\(MarkdownText.html(rule.name))</strong> (\(rule.kind.rawValue)): "
                    + "\(counts(rule))</summary>",
                "",
            ]
            if let description = rule.description {
                lines += [MarkdownText.escape(description), ""]
            }
            for entry in entries {
                lines.append(
                    "- **\(MarkdownText.escape(entry.item.reference))** \(MarkdownText.escape(entry.item.title))")
                for action in entry.actions {
                    lines += markdownAction(action, indent: "  ")
                }
                if !entry.reasons.isEmpty {
                    lines.append("  - because:")
                    lines += entry.reasons.map { "    - " + markdownCondition($0) }
                }
            }
            if hidden > 0 {
                lines.append("- " + MarkdownText.escape(moreHeld(hidden)))
            }
            lines += ["", "</details>"]
        }
        if !plan.guards.isEmpty {
            lines += ["", "> **Guards tripped**", ">"]
            lines += plan.guards.map { "> - " + MarkdownText.escape($0) }
        }
        if let notes = plan.notes {
            lines += [""] + notes.map { "Note: " + MarkdownText.escape($0) }
        }
        lines += ["", "**\(summary(plan))**"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many held-back entries (every action held by a guard) are listed per rule.
    ///
    /// The rest are counted: a tripwire holds back every entry of its rule, thousands on a big
    /// forge, and the plan must stay readable; the JSON form lists them all.
    static let heldListed = 5

    /// The plan's entries by rule, in plan order, found in one pass.
    private static func entriesByRule(_ plan: Plan) -> [String: [PlanEntry]] {
        Dictionary(grouping: plan.entries, by: \.rule)
    }

    /// A rule's entries to list: all but the held-back ones past the first ``heldListed``, and
    /// how many of those were left out.
    private static func listed(_ entries: [PlanEntry]) -> (shown: [PlanEntry], hidden: Int) {
        var heldSeen = 0
        let shown = entries.filter { entry in
            guard !entry.hasPendingActions, entry.hasHeldActions else { return true }
            heldSeen += 1
            return heldSeen <= heldListed
        }
        return (shown, entries.count - shown.count)
    }

    /// The line standing for the held-back entries left out.
    private static func moreHeld(_ count: Int) -> String {
        "… and \(count) more held back as above; every entry: --format json, or plan -o FILE"
    }

    /// `2 matched of 5, 1 acting, 1 held`.
    static func counts(_ rule: Plan.RuleSummary) -> String {
        "\(rule.matched) matched of \(rule.considered), \(rule.acting) acting, \(rule.held) held"
    }

    /// The closing line: `N commands pending (R rules, E entries)`, with what was held back, or
    /// `nothing to do` when nothing is pending or held (naming how many rules wait for their
    /// schedule, which may be why).
    ///
    /// R and E count the rules and entries with at least one pending command.
    static func summary(_ plan: Plan) -> String {
        let waiting = plan.rules.compactMap(\.waiting)
        guard let first = waiting.first else { return work(plan) }
        let count = waiting.reduce(0) { $0 + $1.count }
        return work(plan) + "; \(DisplayText.counted(count, "entry waits", "entries wait")) for a value not there yet "
            + "(gitbay-bot explain \(DisplayText.visible(first.first)))"
    }

    /// What a rule's ``Plan/Waiting`` says under its counts: `2 items wait for a value not there
    /// yet: comment_age.mark-stale; gitbay-bot explain krz/app#12 says why`.
    static func waitingLine(_ waiting: Plan.Waiting) -> String {
        DisplayText.counted(waiting.count, "item waits", "items wait") + " for a value not there yet: "
            + waiting.fields.joined(separator: ", ") + "; gitbay-bot explain \(waiting.first) says why"
    }

    /// The closing line's account of the commands: pending, held, or nothing to do.
    private static func work(_ plan: Plan) -> String {
        let pending = plan.pendingCommandCount
        let held = plan.entries.reduce(0) { $0 + $1.actions.filter { $0.status == .held }.count }
        guard pending > 0 || held > 0 else {
            let waiting = plan.rules.filter { $0.outsideSchedule != nil }.count
            guard waiting > 0 else { return "nothing to do" }
            return "nothing to do now: \(DisplayText.counted(waiting, "rule")) outside "
                + (waiting == 1 ? "its" : "their") + " schedule"
        }
        let acting = plan.entries.filter(\.hasPendingActions)
        let rules = Set(acting.map(\.rule)).count
        var text =
            "\(DisplayText.counted(pending, "command")) pending (\(DisplayText.counted(rules, "rule")), "
            + "\(DisplayText.counted(acting.count, "entry", "entries")))"
        if held > 0 {
            text += ", \(held) held back"
        }
        return text
    }

    /// An action as Markdown list lines: its mark and command in code spans, then stdin and note.
    static func markdownAction(_ action: PlannedAction, indent: String) -> [String] {
        let mark = MarkdownText.code(action.status.mark)
        guard let command = action.command else {
            var text = indent + "- \(mark) \(MarkdownText.escape(action.action)): \(action.status.words)"
            if let note = action.note {
                text += ": " + MarkdownText.escape(note)
            }
            return [text]
        }
        var lines = [indent + "- \(mark) \(MarkdownText.code(ShellQuote.line(command.argv)))"]
        if let stdin = command.stdin {
            let preview = TextBlocks(style: TextStyle(colour: false), width: 100).stdinPreview(stdin, indent: 0)
            lines.append(indent + "  - " + MarkdownText.escape(preview))
        }
        if let note = action.note {
            lines.append(indent + "  - \(action.status.noteLabel): " + MarkdownText.escape(note))
        }
        return lines
    }

    /// `✓ `idle > 60d` (idle: 61d 3h)`.
    static func markdownCondition(_ result: ConditionResult) -> String {
        "\(result.mark) \(MarkdownText.code(result.condition)) "
            + "(\(MarkdownText.escape(result.field)): \(MarkdownText.escape(result.observed)))"
    }
}

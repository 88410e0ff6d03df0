import GitbayKit
import RuleEngine

/// The lines the plan and explain text outputs share: items, actions, stdin bodies and conditions.
///
/// Commands are never wrapped or cut, so every command line can be pasted into a shell; only
/// titles and stdin previews are shortened to `width`.
struct TextBlocks: Sendable {
    var style: TextStyle
    var width: Int

    /// Titles never shrink below this, however long the reference or narrow the width.
    private static let minimumTitle = 12

    /// `krz/gitbay#12  Crash when the config file is empty`, the title cut to fit.
    func item(_ item: PlannedItem, indent: Int) -> String {
        let lead = String(repeating: " ", count: indent) + item.reference + "  "
        let room = max(Self.minimumTitle, width - lead.count)
        return lead + DisplayText.truncated(DisplayText.visible(item.title), to: room)
    }

    /// The action's line (mark and command, or its name and status) and the lines under it.
    func action(_ action: PlannedAction, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let under = pad + "    "
        guard let command = action.command else {
            var text = "\(action.status.mark) \(action.action): \(action.status.words)"
            if let note = action.note {
                text += ": " + DisplayText.visible(note)
            }
            return [pad + style.status(action.status, text)]
        }
        var lines = [pad + style.status(action.status, "\(action.status.mark) \(ShellQuote.line(command.argv))")]
        if let stdin = command.stdin {
            lines.append(under + stdinPreview(stdin, indent: under.count))
        }
        if let note = action.note {
            lines.append(under + "\(action.status.noteLabel): " + DisplayText.visible(note))
        }
        return lines
    }

    /// `stdin: <first line> … (N lines)`: enough to recognise a body, never the whole of it.
    func stdinPreview(_ body: String, indent: Int) -> String {
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 1, lines.last?.isEmpty == true {
            lines.removeLast()
        }
        guard let first = lines.first, !body.isEmpty else { return "stdin: (empty)" }
        let count = " (" + DisplayText.counted(lines.count, "line") + ")"
        let room = max(Self.minimumTitle, width - indent - "stdin: ".count - count.count - 2)
        let line = DisplayText.visible(String(first))
        let shown = DisplayText.truncated(line, to: room)
        if lines.count == 1 {
            return "stdin: " + shown + (shown == line ? "" : count)
        }
        return "stdin: " + shown + (shown == line ? " …" : "") + count
    }

    /// `✓ idle > 60d  (idle: 61d 3h)`, optionally followed by where the condition is written.
    func condition(_ result: ConditionResult, indent: Int, withLocation: Bool = false) -> String {
        String(repeating: " ", count: indent) + "\(result.mark) \(DisplayText.visible(result.condition))  "
            + "(\(result.field): \(DisplayText.visible(result.observed)))"
            + (withLocation ? "  " + result.location : "")
    }

    /// The guards that tripped, under a heading, or nothing when none did.
    func guards(_ guards: [String]) -> [String] {
        guard !guards.isEmpty else { return [] }
        return [style.yellow("guards tripped:")] + guards.map { "  - " + DisplayText.visible($0) }
    }
}

/// Escaping for Markdown output that lands in CI job summaries and merge-request comments.
///
/// Titles and notes are written by other people, so nothing in them may open a table cell, an HTML
/// element, a code span, a link, emphasis or a mention: every such character is escaped, and line
/// breaks become spaces so one title stays one line of a list or a table.
enum MarkdownText {
    /// Text as literal Markdown, safe in a paragraph, a list item and a table cell.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in flattened(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "@": result += "&#64;"
            case "|": result += "\\|"
            case "\\", "`", "*", "_", "[", "]", "~":
                result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }

    /// Text for HTML contexts such as `<summary>`, where Markdown escapes do not apply.
    static func html(_ text: String) -> String {
        var result = ""
        for character in flattened(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "@": result += "&#64;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A code span that holds `text` verbatim, whatever backticks it contains.
    ///
    /// The fence is one backtick longer than the longest run inside, and a space pads each side
    /// when the text starts or ends with a backtick, as CommonMark requires.
    static func code(_ text: String) -> String {
        let flat = flattened(text)
        var longest = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = flat.hasPrefix("`") || flat.hasSuffix("`") ? " " : ""
        return fence + padding + flat + padding + fence
    }

    /// One line: hidden characters made visible, then line breaks and tabs turned into spaces.
    private static func flattened(_ text: String) -> String {
        DisplayText.visible(
            String(text.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }))
    }
}

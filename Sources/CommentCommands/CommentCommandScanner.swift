/// Finds the commands a comment gives: lines that start with `/name`, outside code and quotations.
///
/// A command someone quotes to discuss it, in a code block, an indented code line, a block quote
/// or an HTML comment (markdown), or a source, example or quote block or a fixed-width line (org),
/// is text, not a command: running it would let anyone who quotes a maintainer act as them.
public enum CommentCommandScanner {
    /// The commands of `body`, in order.
    public static func commands(in body: String, markup: CommentMarkup) -> [CommentCommand] {
        switch markup {
        case .markdown: markdownCommands(body)
        case .org: orgCommands(body)
        }
    }

    private static func lines(_ body: String) -> [Substring] {
        body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// Leading spaces, a tab counting as four (CommonMark's indentation).
    private static func indentation(_ line: Substring) -> Int {
        var width = 0
        for character in line {
            if character == " " {
                width += 1
            } else if character == "\t" {
                width += 4 - width % 4
            } else {
                break
            }
        }
        return width
    }

    private static func markdownCommands(_ body: String) -> [CommentCommand] {
        var commands: [CommentCommand] = []
        var fence: (character: Character, length: Int)?
        var inHTMLComment = false
        // A line right after a quoted one, with no blank line between, continues the quotation
        // (CommonMark's lazy continuation): `> you said\n/merge` shows the command quoted. A fence
        // or an HTML block ends it, as they end a paragraph.
        var inQuote = false
        for (index, line) in lines(body).enumerated() {
            let indent = indentation(line)
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if let open = fence {
                let run = trimmed.prefix { $0 == open.character }
                if indent < 4, run.count >= open.length, trimmed.dropFirst(run.count).allSatisfy(\.isWhitespace) {
                    fence = nil
                }
                continue
            }
            if inHTMLComment {
                if line.contains("-->") { inHTMLComment = false }
                continue
            }
            if indent < 4, let first = trimmed.first, first == "`" || first == "~" {
                let run = trimmed.prefix { $0 == first }
                if run.count >= 3 {
                    fence = (first, run.count)
                    inQuote = false
                    continue
                }
            }
            if indent < 4, trimmed.hasPrefix("<!--") {
                inQuote = false
                if !trimmed.dropFirst(4).contains("-->") { inHTMLComment = true }
                continue
            }
            if trimmed.allSatisfy(\.isWhitespace) { inQuote = false }
            if indent < 4, trimmed.first == ">" { inQuote = true }
            // Indented code, and quotations with what continues them.
            guard indent < 4, !inQuote else { continue }
            if let command = CommentCommand(line: line, number: index + 1) { commands.append(command) }
        }
        return commands
    }

    private static func orgCommands(_ body: String) -> [CommentCommand] {
        var commands: [CommentCommand] = []
        var block: String?
        for (index, line) in lines(body).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let lower = trimmed.lowercased()
            if let open = block {
                if lower.hasPrefix("#+end_\(open)") { block = nil }
                continue
            }
            if lower.hasPrefix("#+begin_") {
                block = String(lower.dropFirst("#+begin_".count).prefix { !$0.isWhitespace })
                continue
            }
            // `: text` is a fixed-width line.
            guard trimmed != ":", !trimmed.hasPrefix(": ") else { continue }
            if let command = CommentCommand(line: line, number: index + 1) { commands.append(command) }
        }
        return commands
    }
}

import Foundation

/// A `gitbay-bot` command line shown in a fenced code block of the documentation.
///
/// Extracted mechanically, so a command added to the docs is run by `DocsCommandTests` without anyone
/// having to remember to add a test for it.
struct DocumentedCommand: Sendable, Equatable {
    /// The Markdown file, relative to the repository root.
    let page: String
    /// The 1-based line number in the page, for failure messages.
    let line: Int
    /// The line as written, trimmed of surrounding spaces: the key of the skip list.
    let text: String
    /// The names of the `NAME=value` assignments written before the command, for the test to supply.
    let environment: [String]
    /// The command from `gitbay-bot` or `gitbay-bench` on, cut before any redirection, pipe or `&&`.
    let command: String

    /// Every command of a page's fenced code blocks, in page order.
    ///
    /// A line is a command when the word `gitbay-bot` or `gitbay-bench` (at the start, after a space or
    /// after a path's `/`) is followed by a lowercase subcommand, whatever comes before it (`$ `,
    /// `swift run `, a YAML step's `- `, an environment assignment, a cron schedule).
    static func extract(page: String, markdown: String) -> [DocumentedCommand] {
        var commands: [DocumentedCommand] = []
        var inside = false
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inside.toggle()
                continue
            }
            guard inside, let start = commandStart(line) else { continue }
            var command = String(line[start...])
            for stop in [" >", " 2>", " |", " &&", " ;"] {
                if let cut = command.range(of: stop) { command = String(command[..<cut.lowerBound]) }
            }
            let before = line[..<start].split(separator: " ").map(String.init)
            let environment = before.filter { $0.contains("=") && $0.first?.isUppercase == true }
                .map { String($0.prefix { $0 != "=" }) }
            commands.append(
                DocumentedCommand(
                    page: page, line: index + 1, text: line, environment: environment, command: command))
        }
        return commands
    }

    /// Where the program name starts in a line, when the line runs `gitbay-bot` or `gitbay-bench`.
    ///
    /// `gitbay-bench` counts with or without arguments, so its lines reach the skip list; `gitbay-bot` needs a
    /// subcommand after it, which tells `cd /srv/gitbay-bot &&` and `gitbay-bot.yml` apart from a command.
    private static func commandStart(_ line: String) -> String.Index? {
        for program in ["gitbay-bot", "gitbay-bench"] {
            var searchStart = line.startIndex
            while let found = line.range(of: program, range: searchStart..<line.endIndex) {
                let atWordStart =
                    found.lowerBound == line.startIndex
                    || [" ", "/"].contains(line[line.index(before: found.lowerBound)])
                let rest = line[found.upperBound...]
                let runs =
                    program == "gitbay-bench"
                    ? rest.isEmpty || rest.first == " "
                    : rest.first == " " && rest.dropFirst().first?.isLowercase == true
                if atWordStart, runs { return found.lowerBound }
                searchStart = found.upperBound
            }
        }
        return nil
    }
}

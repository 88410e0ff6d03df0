/// Writes a static fish completion script for a command tree.
///
/// A helper function works out which command the words typed so far select; every `complete` line is
/// conditioned on that path, so each command offers exactly its own options, values and subcommands.
struct FishCompletionScript: Sendable {
    /// The root of the command tree.
    var root: CommandSpec

    /// The whole script, ending in a newline.
    func rendered() -> String {
        let top = CommandStack(root: root)
        let helper = "_\(top.functionName)_command_path"
        var lines = [
            "# fish completion for \(root.name), generated from its command table.",
            "function \(helper)",
            "    set -l path \(root.name)",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    for word in $words",
            "        switch \"$path $word\"",
        ]
        for stack in top.subtree.dropFirst() {
            let parent = stack.names.dropLast().joined(separator: " ")
            let words = [stack.innermost.name] + stack.innermost.aliases
            lines += [
                "            case " + words.map { Self.quoted("\(parent) \($0)") }.joined(separator: " "),
                "                set path \(stack.path)",
            ]
        }
        lines += [
            "        end",
            "    end",
            "    echo $path",
            "end",
            "",
        ]
        for stack in top.subtree {
            let condition = "-n " + Self.quoted("test (\(helper)) = \(Self.quoted(stack.path, quote: "\""))")
            let prefix = "complete -c \(root.name) \(condition)"
            for subcommand in stack.innermost.subcommands {
                lines.append(
                    "\(prefix) -f -a \(Self.quoted(subcommand.name)) -d \(Self.quoted(subcommand.abstract))")
            }
            if stack.isRoot, !root.subcommands.isEmpty {
                lines.append("\(prefix) -f -a 'help' -d 'Show subcommand help information.'")
            }
            for option in stack.visibleOptions {
                lines += Self.lines(for: option, prefix: prefix)
            }
            if stack.version != nil {
                lines.append("\(prefix) -l version -d 'Show the version.'")
            }
            lines.append("\(prefix) -s h -l help -d 'Show help information.'")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `complete` lines for one option (two for an inversion).
    private static func lines(for option: OptionSpec, prefix: String) -> [String] {
        var names = option.shortName.map { "-s \($0) " } ?? ""
        names += "-l \(option.name)"
        var value = ""
        if option.kind.takesValue {
            value =
                option.allowedValues.isEmpty
                ? " -r -F" : " -r -f -a \(quoted(option.allowedValues.joined(separator: " ")))"
        }
        var lines = ["\(prefix) \(names)\(value) -d \(quoted(option.help))"]
        if let inverted = option.invertedName {
            lines.append("\(prefix) -l \(inverted) -d \(quoted(option.help))")
        }
        return lines
    }

    /// Quotes text for fish, single-quoted by default (escaping `\` and `'`), or double-quoted.
    private static func quoted(_ text: String, quote: Character = "'") -> String {
        var result = String(quote)
        for character in text {
            if character == quote || character == "\\" || (quote == "\"" && character == "$") {
                result.append("\\")
            }
            result.append(character)
        }
        return result + String(quote)
    }
}

/// Writes a static bash completion script for a command tree.
///
/// One function per command completes its options, the values of enumerated options, and its subcommands,
/// then hands over to the subcommand's function, so the script mirrors the table and needs no callback.
struct BashCompletionScript: Sendable {
    /// The root of the command tree.
    var root: CommandSpec

    /// The whole script, ending in a newline.
    func rendered() -> String {
        let top = CommandStack(root: root)
        var script = """
            #!/bin/bash

            \(top.functionName)() {
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                COMPREPLY=()
                \(top.functionName)_command 1
            }

            """
        for stack in top.subtree {
            script += function(for: stack)
        }
        script += "\ncomplete -F \(top.functionName) \(root.name)\n"
        return script
    }

    /// The function completing one command; `$1` is the index of the first word after the command's name.
    private func function(for stack: CommandStack) -> String {
        var words = stack.completionWords
        words += stack.innermost.subcommands.flatMap { [$0.name] + $0.aliases }
        if stack.isRoot, !root.subcommands.isEmpty {
            words.append("help")
        }
        var lines = [
            "\(stack.functionName)_command() {",
            "    opts=\"\(Self.quoted(words.joined(separator: " ")))\"",
        ]
        let valued = stack.visibleOptions.filter(\.kind.takesValue)
        if !valued.isEmpty {
            lines.append("    case $prev in")
            for option in valued {
                let patterns = ["--\(option.name)"] + (option.shortName.map { ["-\($0)"] } ?? [])
                let reply =
                    option.allowedValues.isEmpty
                    ? "compgen -f -- \"$cur\""
                    : "compgen -W \"\(Self.quoted(option.allowedValues.joined(separator: " ")))\" -- \"$cur\""
                lines += [
                    "        (\(patterns.joined(separator: "|")))",
                    "            COMPREPLY=( $(\(reply)) )",
                    "            return",
                    "            ;;",
                ]
            }
            lines.append("    esac")
        }
        lines += [
            "    if [[ $COMP_CWORD == \"$1\" ]]; then",
            "        COMPREPLY=( $(compgen -W \"$opts\" -- \"$cur\") )",
            "        return",
            "    fi",
        ]
        if !stack.innermost.subcommands.isEmpty {
            lines.append("    case ${COMP_WORDS[$1]} in")
            for subcommand in stack.innermost.subcommands {
                var child = stack
                child.push(subcommand)
                lines += [
                    "        (\(([subcommand.name] + subcommand.aliases).joined(separator: "|")))",
                    "            \(child.functionName)_command $(($1+1))",
                    "            return",
                    "            ;;",
                ]
            }
            lines.append("    esac")
        }
        lines += [
            "    COMPREPLY=( $(compgen -W \"$opts\" -- \"$cur\") )",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes text for a double-quoted bash string.
    private static func quoted(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\"$`\\".contains(character) {
                result.append("\\")
            }
            result.append(character)
        }
        return result
    }
}

/// Writes a static zsh completion script (for `fpath`, named `_<tool>`) for a command tree.
///
/// One function per command feeds `_arguments` its options (with enumerated values and help), its
/// positionals, and a state machine that describes and dispatches to subcommands.
struct ZshCompletionScript: Sendable {
    /// The root of the command tree.
    var root: CommandSpec

    /// The whole script, ending in a newline.
    func rendered() -> String {
        let top = CommandStack(root: root)
        var script = "#compdef \(root.name)\n\n"
        for stack in top.subtree {
            script += function(for: stack) + "\n"
        }
        script += "\(top.functionName) \"$@\"\n"
        return script
    }

    /// The function completing one command.
    private func function(for stack: CommandStack) -> String {
        let command = stack.innermost
        var specs = stack.visibleOptions.flatMap(Self.specs(for:))
        if command.subcommands.isEmpty {
            specs += command.positionals.map { positional in
                let prefix = positional.isRepeating ? "*:" : positional.isOptional ? "::" : ":"
                return "'\(prefix)\(Self.escaped(positional.name)):_files'"
            }
        }
        if stack.version != nil {
            specs.append("'--version[Show the version.]'")
        }
        specs.append("'(-h --help)'{-h,--help}'[Show help information.]'")
        if !command.subcommands.isEmpty {
            specs += ["'(-): :->command'", "'(-)*:: :->arg'"]
        }
        var lines = [
            "\(stack.functionName)() {",
            "    integer ret=1",
            "    local -a args",
            "    args+=(",
        ]
        lines += specs.map { "        " + $0 }
        lines += [
            "    )",
            "    _arguments -w -s -S $args[@] && ret=0",
        ]
        if !command.subcommands.isEmpty {
            lines += subcommandStates(for: stack)
        }
        lines += ["", "    return ret", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `case $state` block that lists subcommands and hands over to the chosen one.
    private func subcommandStates(for stack: CommandStack) -> [String] {
        var entries = stack.innermost.subcommands.flatMap { subcommand in
            ([subcommand.name] + subcommand.aliases).map { name in
                "                '\(Self.escaped(name, extra: ":")):\(Self.escaped(subcommand.abstract))'"
            }
        }
        if stack.isRoot {
            entries.append("                'help:Show subcommand help information.'")
        }
        var lines = [
            "    case $state in",
            "        (command)",
            "            local subcommands",
            "            subcommands=(",
        ]
        lines += entries
        lines += [
            "            )",
            "            _describe \"subcommand\" subcommands",
            "            ;;",
            "        (arg)",
            "            case ${words[1]} in",
        ]
        for subcommand in stack.innermost.subcommands {
            var child = stack
            child.push(subcommand)
            lines += [
                "                (\(([subcommand.name] + subcommand.aliases).joined(separator: "|")))",
                "                    \(child.functionName)",
                "                    ;;",
            ]
        }
        lines += ["            esac", "            ;;", "    esac"]
        return lines
    }

    /// The `_arguments` specs for one option: names, help and how to complete its value.
    private static func specs(for option: OptionSpec) -> [String] {
        let help = "[\(escaped(option.help))]"
        var value = ""
        if option.kind.takesValue {
            let action =
                option.allowedValues.isEmpty
                ? "_files" : "(\(option.allowedValues.map { escaped($0, extra: " ()") }.joined(separator: " ")))"
            value = ":\(escaped(option.valueName, extra: ":")):\(action)"
        }
        var names = ["--\(option.name)"]
        if let short = option.shortName {
            names.insert("-\(short)", at: 0)
        }
        if let inverted = option.invertedName {
            names.append("--\(inverted)")
        }
        let exclusion = option.kind == .repeatableValue ? "*" : "(\(names.joined(separator: " ")))"
        if names.count == 1 {
            return ["'\(exclusion)\(names[0])\(help)\(value)'"]
        }
        return ["'\(exclusion)'{\(names.joined(separator: ","))}'\(help)\(value)'"]
    }

    /// Escapes text for a single-quoted `_arguments` spec: brackets, backslashes, quotes and any `extra`.
    private static func escaped(_ text: String, extra: String = "") -> String {
        var result = ""
        for character in text {
            if character == "'" {
                result += "'\\''"
                continue
            }
            if "[]\\".contains(character) || extra.contains(character) {
                result.append("\\")
            }
            result.append(character)
        }
        return result
    }
}

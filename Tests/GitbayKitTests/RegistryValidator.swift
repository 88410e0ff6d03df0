import GitbayKit

/// Checks a rendered argv against gitbay's registry the way gitbay's dispatcher and flag parser would.
///
/// Returns every violation rather than the first, so a failing test shows all that is wrong. It is
/// deliberately strict: any word it cannot account for is a violation.
struct RegistryValidator: Sendable {
    let registry: Registry

    /// Every way `command` breaks the registry; empty when gitbay would accept it.
    func violations(of command: ControlCommand) -> [String] {
        let argv = command.argv
        let commandPaths = Set(registry.commands.map(\.path))
        let allPaths = commandPaths.union(registry.knownPaths)
        guard
            let length = stride(from: min(argv.count, 4), through: 1, by: -1).first(where: {
                allPaths.contains(argv.prefix($0).joined(separator: " "))
            })
        else { return ["no command path is a prefix of \(argv)"] }
        let path = argv.prefix(length).joined(separator: " ")
        let words = Array(argv.dropFirst(length))
        let forms = registry.commands.filter { $0.path == path }
        let selected =
            forms.first { form in
                form.formSelector.map { selector in words.contains(where: selector.anyWordEquals.contains) } ?? false
            } ?? forms.first { $0.formSelector == nil }
        guard let entry = selected else { return ["'\(path)' has no registry entry"] }
        var problems: [String] = []
        if entry.readOnly != (command.effect == .read) {
            problems.append("'\(path)' read_only is \(entry.readOnly) but the effect is \(command.effect)")
        }
        if command.stdin != nil, !entry.readsStdin {
            problems.append("'\(path)' does not read stdin")
        }
        let parsed = parse(words, for: entry, problems: &problems)
        checkPositionals(parsed.positionals, entry: entry, problems: &problems)
        checkConstraints(entry, parsed: parsed, stdin: command.stdin, problems: &problems)
        return problems
    }

    private struct Parsed {
        var positionals: [String] = []
        var values: [String: [String]] = [:]

        func has(_ flag: String) -> Bool { values[flag] != nil }
    }

    private func parse(_ words: [String], for entry: Registry.Command, problems: inout [String]) -> Parsed {
        var parsed = Parsed()
        var index = 0
        var flagsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--", entry.parser == "flags", !flagsEnded {
                flagsEnded = true
                continue
            }
            let isPaging = word == "--limit" || word == "--cursor"
            guard word.hasPrefix("-"), !flagsEnded || isPaging else {
                parsed.positionals.append(word)
                continue
            }
            if word.contains("=") {
                problems.append("'\(word)': gitbay reads --name=value as an unknown flag")
                continue
            }
            if entry.refusedFlags?.contains(word) == true {
                problems.append("'\(word)' is refused in the \(entry.form ?? "") form")
                index += 1
                continue
            }
            guard let flag = entry.flags.first(where: { $0.name == word }) else {
                problems.append("'\(word)' is not a flag of '\(entry.path)'")
                continue
            }
            var value = ""
            if flag.takesValue {
                guard index < words.count else {
                    problems.append("'\(word)' needs a value")
                    break
                }
                value = words[index]
                index += 1
                checkValue(value, of: flag, problems: &problems)
            }
            if parsed.has(word), !flag.repeatable {
                problems.append("'\(word)' is not repeatable")
            }
            parsed.values[word, default: []].append(value)
        }
        return parsed
    }

    private func checkValue(_ value: String, of flag: Registry.Flag, problems: inout [String]) {
        if let allowed = flag.values {
            let normalised = flag.caseInsensitive == true ? value.lowercased() : value
            let resolved = flag.valueAliases?[normalised] ?? normalised
            if !allowed.contains(resolved) {
                problems.append("'\(value)' is not one of \(allowed) for \(flag.name)")
            }
        }
        if flag.valueType == "int" {
            if let number = Int(value) {
                if let range = flag.intRange {
                    if let low = range.first ?? nil, number < low {
                        problems.append("\(flag.name) \(number) is below \(low)")
                    }
                    if range.count > 1, let high = range[1], number > high {
                        problems.append("\(flag.name) \(number) is above \(high)")
                    }
                }
            } else {
                problems.append("\(flag.name) needs an integer, got '\(value)'")
            }
        }
        if let range = flag.lengthRange, !(range[0]...range[1]).contains(value.utf8.count) {
            problems.append("\(flag.name) value length \(value.utf8.count) is outside \(range)")
        }
        if flag.valueType == "color" {
            let digits = value.hasPrefix("#") ? String(value.dropFirst()) : value
            if !value.isEmpty, digits.utf8.count != 6 || !digits.allSatisfy(\.isHexDigit) {
                problems.append("\(flag.name) '\(value)' is not a colour")
            }
        }
        if ["cursor", "query", "saved_query_name"].contains(flag.valueType), value.allSatisfy(\.isWhitespace) {
            problems.append("\(flag.name) needs a non-blank value")
        }
    }

    private func checkPositionals(_ positionals: [String], entry: Registry.Command, problems: inout [String]) {
        let count = entry.positionalCount
        if positionals.count < count.min || count.max.map({ positionals.count > $0 }) == true {
            problems.append(
                "'\(entry.path)' takes \(count.min)...\(count.max ?? Int.max) positionals, got \(positionals)")
        }
        for (declared, word) in zip(entry.positionals, positionals) {
            switch declared.type {
            case "repo":
                if (try? RepositoryPath(word)) == nil {
                    problems.append("positional \(declared.name) '\(word)' is not owner/name")
                }
            case "int":
                if (Int(word) ?? 0) < 1 {
                    problems.append("positional \(declared.name) '\(word)' is not a number of 1 or more")
                }
            default:
                if word.isEmpty {
                    problems.append("positional \(declared.name) is empty")
                }
            }
            if let range = declared.lengthRange, !(range[0]...range[1]).contains(word.count) {
                problems.append("positional \(declared.name) length \(word.count) is outside \(range)")
            }
        }
    }

    private func checkConstraints(
        _ entry: Registry.Command, parsed: Parsed, stdin: String?, problems: inout [String]
    ) {
        for constraint in entry.constraints {
            let flags = constraint.flags ?? []
            let present = flags.filter(parsed.has)
            switch constraint.kind {
            case "at_least_one_of" where present.isEmpty:
                problems.append("'\(entry.path)' needs at least one of \(flags)")
            case "exactly_one_of" where present.count != 1:
                problems.append("'\(entry.path)' needs exactly one of \(flags), got \(present)")
            case "mutually_exclusive" where present.count > 1:
                problems.append("\(present) cannot be combined")
            case "required" where present.count != flags.count:
                problems.append("'\(entry.path)' requires \(flags)")
            case "excludes":
                if let flag = constraint.flag, parsed.has(flag), let other = constraint.with?.first(where: parsed.has) {
                    problems.append("\(flag) excludes \(other)")
                }
            case "flag_not_equal_positional":
                if let flag = constraint.flag, let value = parsed.values[flag]?.last,
                    let index = entry.positionals.firstIndex(where: { $0.name == constraint.positional }),
                    index < parsed.positionals.count, parsed.positionals[index] == value
                {
                    problems.append("\(flag) must differ from positional \(constraint.positional ?? "")")
                }
            case "body_required":
                checkBody(constraint, parsed: parsed, stdin: stdin, problems: &problems)
            case "query_must_select":
                let query = parsed.values["--q"]?.last ?? ""
                let other = constraint.noun == "issue" ? "is:mr" : "is:issue"
                if query.split(separator: " ").contains(Substring(other)) {
                    problems.append("a '\(constraint.noun ?? "")' query cannot select only \(other)")
                }
            case "at_least_one_of", "exactly_one_of", "mutually_exclusive", "required", "ids_xor_flag":
                break
            default:
                problems.append("unknown constraint kind '\(constraint.kind)'")
            }
        }
    }

    private func checkBody(_ constraint: Registry.Constraint, parsed: Parsed, stdin: String?, problems: inout [String])
    {
        let inline = constraint.inline.map(parsed.has) ?? false
        let fromStdin = constraint.stdin.map(parsed.has) ?? false
        if !inline, !fromStdin {
            problems.append("a body is required: \(constraint.inline ?? "") or \(constraint.stdin ?? "") -")
        }
        if fromStdin, (stdin ?? "").allSatisfy(\.isWhitespace) {
            problems.append("\(constraint.stdin ?? "") - reads stdin, but no non-blank stdin is sent")
        }
        if !fromStdin, stdin != nil {
            problems.append("stdin is sent but \(constraint.stdin ?? "") - is not given")
        }
    }
}

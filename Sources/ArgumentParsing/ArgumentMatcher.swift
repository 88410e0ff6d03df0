import Suggestions

/// The second pass over the tokens: options and positionals matched against the resolved command.
///
/// It collects values exactly as given; ``invocation()`` then fills in defaults and checks what is required.
struct ArgumentMatcher: Sendable {
    /// The command being matched, with its inherited options.
    let stack: CommandStack
    /// Flag states given on the command line, by option name.
    private(set) var flags: [String: Bool] = [:]
    /// Option values given on the command line, by option name, in order.
    private(set) var values: [String: [String]] = [:]
    /// Positional values, in order.
    private(set) var positionals: [String] = []

    /// Creates a matcher for the innermost command of `stack`.
    init(stack: CommandStack) {
        self.stack = stack
    }

    /// Matches every token not in `skipping` (positions of subcommand names), stopping at the first problem.
    mutating func match(_ tokens: [ArgumentToken], skipping consumed: Set<Int>) throws(ParseProblem) {
        var taken = consumed
        for (position, token) in tokens.enumerated() where !taken.contains(position) {
            let next = position + 1 < tokens.count && !taken.contains(position + 1) ? tokens[position + 1].value : nil
            switch token.kind {
            case .terminator:
                continue
            case .value(let text):
                positionals.append(text)
            case .long(let name, let attached):
                switch stack.match(long: name) {
                case .declared(let option, _) where option.kind.takesValue:
                    guard let value = attached ?? next else {
                        throw ParseProblem.missingValue(spelling: "--\(name)", option: option)
                    }
                    if attached == nil {
                        taken.insert(position + 1)
                    }
                    try record(value, for: option, spelling: "--\(name)")
                case .declared, .help, .version:
                    if let attached {
                        throw ParseProblem.unexpectedValue(spelling: "--\(name)", value: attached)
                    }
                    if case .declared(let option, let inverted) = stack.match(long: name) {
                        flags[option.name] = !inverted
                    }
                case nil:
                    throw ParseProblem.unknownOption(spelling: "--\(name)", suggestion: suggestion(for: name))
                }
            case .short(let letters):
                for (offset, letter) in letters.enumerated() {
                    guard case .declared(let option, _) = stack.match(short: letter) else {
                        throw ParseProblem.unknownOption(spelling: "-\(letter)", suggestion: nil)
                    }
                    guard option.kind.takesValue else {
                        flags[option.name] = true
                        continue
                    }
                    guard offset == letters.count - 1, let value = next else {
                        throw ParseProblem.missingValue(spelling: "-\(letter)", option: option)
                    }
                    taken.insert(position + 1)
                    try record(value, for: option, spelling: "-\(letter)")
                }
            }
        }
    }

    /// Checks a value against the allowed ones and stores it (replacing, or appending for repeatables).
    private mutating func record(_ value: String, for option: OptionSpec, spelling: String) throws(ParseProblem) {
        guard option.allowedValues.isEmpty || option.allowedValues.contains(value) else {
            throw ParseProblem.invalidValue(value: value, spelling: spelling, option: option)
        }
        if option.kind == .repeatableValue {
            values[option.name, default: []].append(value)
        } else {
            values[option.name] = [value]
        }
    }

    /// The closest visible long option within edit distance 3, spelled with dashes.
    private func suggestion(for name: String) -> String? {
        Suggestion.closest(to: "--\(name)", among: stack.suggestibleLongNames.map { "--\($0)" })
    }

    /// Assigns positionals, checks required arguments, fills in defaults and builds the invocation.
    func invocation() throws(ParseProblem) -> Invocation {
        let specs = stack.innermost.positionals
        var remaining = positionals[...]
        var byName: [String: [String]] = [:]
        for (index, spec) in specs.enumerated() {
            let laterRequired = specs[(index + 1)...].filter { !$0.isOptional }.count
            let available = max(0, remaining.count - laterRequired)
            let count = spec.isRepeating ? available : min(1, spec.isOptional ? available : remaining.count)
            if count == 0, !spec.isOptional {
                throw ParseProblem.missingPositional(spec)
            }
            byName[spec.name] = Array(remaining.prefix(count))
            remaining = remaining.dropFirst(count)
        }
        if !remaining.isEmpty {
            throw ParseProblem.unexpectedArguments(Array(remaining))
        }
        var allFlags = flags
        var allValues = values
        for option in stack.options {
            switch option.kind {
            case .flag:
                allFlags[option.name] = allFlags[option.name] ?? false
            case .inversion(let defaultValue):
                allFlags[option.name] = allFlags[option.name] ?? defaultValue
            case .value, .repeatableValue:
                if allValues[option.name] == nil {
                    if option.isRequired {
                        throw ParseProblem.missingOption(option)
                    }
                    allValues[option.name] = option.defaultValue.map { [$0] }
                }
            }
        }
        return Invocation(
            commandPath: stack.names, positionals: positionals, usage: stack.synopsis, flags: allFlags,
            optionValues: allValues, positionalValues: byName)
    }
}

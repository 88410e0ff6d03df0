/// Checks a command table for mistakes the parser would otherwise paper over.
///
/// Tables are data written by hand, so a duplicated name or a repeating positional in the middle would
/// silently shadow or starve an argument; a test that asserts ``problems(in:)`` is empty catches them once.
public enum DeclarationCheck {
    /// Every problem found in the tree rooted at `root`, parents first, each naming the command path.
    public static func problems(in root: CommandSpec) -> [String] {
        CommandStack(root: root).subtree.flatMap(problems(at:))
    }

    /// The problems of the innermost command of `stack` (its own declarations, plus clashes with inherited ones).
    private static func problems(at stack: CommandStack) -> [String] {
        let command = stack.innermost
        var found: [String] = []
        let longNames = stack.options.flatMap { [$0.name] + ($0.invertedName.map { [$0] } ?? []) }
        for name in Set(longNames + ["help"]) where (longNames + ["help"]).filter({ $0 == name }).count > 1 {
            found.append("\(stack.path): option '--\(name)' is declared more than once")
        }
        let shortNames = stack.options.compactMap(\.shortName) + ["h"]
        for letter in Set(shortNames) where shortNames.filter({ $0 == letter }).count > 1 {
            found.append("\(stack.path): option '-\(letter)' is declared more than once")
        }
        for option in command.options {
            if let defaultValue = option.defaultValue, !option.allowedValues.isEmpty,
                !option.allowedValues.contains(defaultValue)
            {
                found.append("\(stack.path): default '\(defaultValue)' of '--\(option.name)' is not an allowed value")
            }
            if option.defaultValue != nil, option.kind != .value {
                found.append("\(stack.path): only single-value options take a default ('--\(option.name)')")
            }
        }
        for positional in command.positionals.dropLast() where positional.isRepeating {
            found.append("\(stack.path): repeating argument '<\(positional.name)>' must come last")
        }
        let words = command.subcommands.flatMap { [$0.name] + $0.aliases }
        for word in Set(words) where words.filter({ $0 == word }).count > 1 {
            found.append("\(stack.path): subcommand name '\(word)' is used more than once")
        }
        if let fallback = command.defaultSubcommand, command.defaultCommand == nil {
            found.append("\(stack.path): default subcommand '\(fallback)' is not one of its subcommands")
        }
        if !command.subcommands.isEmpty, !command.positionals.isEmpty {
            found.append("\(stack.path): a command with subcommands cannot take positional arguments")
        }
        return found.sorted()
    }
}

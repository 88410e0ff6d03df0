/// Renders a command's help screen in argument-parser's layout.
///
/// Users of Swift tools know this layout (`OVERVIEW:`, `USAGE:`, sections, help text at column 26), and the
/// golden tests compare whole screens, so every space here is deliberate.
struct HelpGenerator: Sendable {
    /// The indent of labels within a section.
    static let labelIndent = 2
    /// The column where help text starts.
    static let labelColumnWidth = 26

    /// The command whose help this is.
    var stack: CommandStack
    /// The width to wrap at.
    var width: Int

    /// The whole help screen, ending in a newline.
    func rendered() -> String {
        let command = stack.innermost
        var overview = command.abstract
        if !command.discussion.isEmpty {
            overview += overview.isEmpty ? command.discussion : "\n\n" + command.discussion
        }
        var text = ""
        if !overview.isEmpty {
            text += "OVERVIEW: \(overview)".wrapped(to: width) + "\n\n"
        }
        text += "USAGE: \(stack.synopsis)\n\n"
        let sections = [
            section("ARGUMENTS", command.positionals.map { ("<\($0.name)>", $0.help) }),
            section("OPTIONS", optionElements),
            section("SUBCOMMANDS", command.subcommands.map(subcommandElement)),
        ]
        text += sections.filter { !$0.isEmpty }.joined(separator: "\n")
        if !command.subcommands.isEmpty {
            let names = [stack.names[0], "help"] + stack.names.dropFirst()
            text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help.\n"
        }
        return text
    }

    /// The OPTIONS entries: declared options, then `--version` when set, then `-h, --help`.
    private var optionElements: [(String, String)] {
        var elements = stack.visibleOptions.map { (Self.label(of: $0), Self.description(of: $0)) }
        if stack.version != nil {
            elements.append(("--version", "Show the version."))
        }
        elements.append(("-h, --help", "Show help information."))
        return elements
    }

    /// One SUBCOMMANDS entry: `name, alias (default)` and its abstract.
    private func subcommandElement(_ subcommand: CommandSpec) -> (String, String) {
        var label = ([subcommand.name] + subcommand.aliases).joined(separator: ", ")
        if subcommand.name == stack.innermost.defaultSubcommand {
            label += " (default)"
        }
        return (label, subcommand.abstract)
    }

    /// A titled section, or empty when it has no entries.
    private func section(_ title: String, _ elements: [(String, String)]) -> String {
        guard !elements.isEmpty else { return "" }
        return "\(title):\n" + elements.map { element($0.0, $0.1) }.joined()
    }

    /// One entry: the label at column 2 and its text at column 26, or on the next line when the label is long.
    private func element(_ label: String, _ description: String) -> String {
        let padded = String(repeating: " ", count: Self.labelIndent) + label
        guard !description.isEmpty else { return padded + "\n" }
        let wrapped = description.wrapped(to: width, indent: Self.labelColumnWidth)
        if padded.count < Self.labelColumnWidth {
            return padded + wrapped.dropFirst(padded.count) + "\n"
        }
        return padded + "\n" + wrapped + "\n"
    }

    /// An option's label: `-s, --long <value>` or `--name/--no-name`.
    static func label(of option: OptionSpec) -> String {
        var names = option.shortName.map { "-\($0), " } ?? ""
        names += "--\(option.name)"
        switch option.kind {
        case .flag:
            return names
        case .inversion:
            return names + "/--no-\(option.name)"
        case .value, .repeatableValue:
            return names + " <\(option.valueName)>"
        }
    }

    /// An option's help text followed by `(values: a, b; default: x)` when it has either.
    static func description(of option: OptionSpec) -> String {
        var details: [String] = []
        if !option.allowedValues.isEmpty {
            details.append("values: " + option.allowedValues.joined(separator: ", "))
        }
        if case .inversion(let defaultValue) = option.kind {
            details.append("default: --" + (defaultValue ? "" : "no-") + option.name)
        } else if let defaultValue = option.defaultValue {
            details.append("default: \(defaultValue)")
        }
        let suffix = details.isEmpty ? "" : "(\(details.joined(separator: "; ")))"
        return [option.help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

import CommentCommands

/// How a rule's templates and name lists name what a command gave: `{{ command.author }}` and
/// `{{ command.<parameter> }}`.
enum CommandValues {
    /// The prefix every such name has.
    static let prefix = "command."
    /// What plans and `explain` call the command among an entry's reasons.
    static let field = "command"

    /// The parameter a name list's entry stands for when it is one placeholder alone
    /// (`add-label: "{{ command.labels }}"`); `nil` for a plain name.
    static func parameter(placedBy entry: String) -> String? {
        guard entry.hasPrefix("{{"), let template = try? Template(parsing: entry), template.parts.count == 1,
            case .field(let field, _) = template.parts[0], field.hasPrefix(prefix)
        else { return nil }
        return String(field.dropFirst(prefix.count))
    }

    /// A placeholder's text from `command`: its author, or a parameter's values joined by spaces
    /// (empty when left out); `nil` for a name that is no command's.
    static func value(of name: String, in command: PlannedCommand) -> String? {
        guard name.hasPrefix(prefix) else { return nil }
        let parameter = String(name.dropFirst(prefix.count))
        if parameter == CommandPattern.authorName { return command.author }
        return (command.arguments[parameter] ?? []).joined(separator: " ")
    }
}

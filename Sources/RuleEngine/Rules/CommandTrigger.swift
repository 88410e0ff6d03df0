import CommentCommands

/// What makes a rule answer a comment: the command it takes and who may give it.
///
/// A rule with a trigger acts on an item only for a command in a comment on it, once per
/// command, and only when its author is allowed; the rule's `when:` must still hold.
public struct CommandTrigger: Sendable, Hashable {
    /// Who may give a rule's command.
    public enum Permission: Sendable, Hashable, CustomStringConvertible {
        /// The item's author.
        case author
        /// Accounts with write access to the item's repository.
        case writers
        /// One account, by name.
        case account(String)

        public var description: String {
            switch self {
            case .author: "author"
            case .writers: "writers"
            case .account(let name): "@" + name
            }
        }
    }

    public let pattern: CommandPattern
    /// Anyone one of these names may give the command; `[.writers]` unless the rule says.
    public let allowed: [Permission]

    public init(pattern: CommandPattern, allowed: [Permission]) {
        self.pattern = pattern
        self.allowed = allowed
    }

    /// The names a template may use besides the item's fields: each parameter's, and who gave it.
    public var templateNames: [String] {
        ["command.author"] + pattern.parameters.map { "command.\($0.name)" }
    }
}

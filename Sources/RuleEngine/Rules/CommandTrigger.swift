import CommentCommands

/// What makes a rule answer a comment: the command it takes and who may give it.
///
/// A rule with a trigger acts on an item only for a command in a comment on it, once per
/// command, and only when its author is allowed; the rule's `when:` must still hold.
public struct CommandTrigger: Sendable, Hashable {
    public let pattern: CommandPattern
    /// Anyone one of these names may give the command; `[.writers]` unless the rule says.
    public let allowed: [CommandPermission]

    public init(pattern: CommandPattern, allowed: [CommandPermission]) {
        self.pattern = pattern
        self.allowed = allowed
    }

    /// The names a template may use besides the item's fields: each parameter's, and who gave it.
    public var templateNames: [String] {
        ["command.author"] + pattern.parameters.map { "command.\($0.name)" }
    }
}

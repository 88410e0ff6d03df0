import CommentCommands
import Suggestions

/// What makes a rule answer a comment: the command it takes and who may give it.
///
/// A rule with a trigger acts on an item only for a command in a comment on it, once per
/// command, and only when its author is allowed; the rule's `when:` must still hold.
public struct CommandTrigger: Sendable, Hashable {
    public let pattern: CommandPattern
    /// Anyone one of these names may give the command; `[.writers]` unless the rule says.
    public let allowed: [CommandPermission]
    /// The command names the rules give for this rule's kind, its own among them; with
    /// ``answersMisspellings``, what a misspelt name is matched against (``RuleSet`` sets both).
    public var knownNames: Set<String> = []
    /// Whether this rule answers a command whose name is none of ``knownNames`` but closest to its
    /// own: the first rule of the kind with that name does, so a slip gets one reply.
    public var answersMisspellings = false

    public init(pattern: CommandPattern, allowed: [CommandPermission]) {
        self.pattern = pattern
        self.allowed = allowed
    }

    /// Whether `name`, a command no rule of the kind gives, is a slip for this rule's: it is
    /// closest to it among the known names, within one edit for a name of four letters or less
    /// and two for a longer one, so that `/lable` is answered and `/lgtm` or `/usr` are left alone.
    public func mistakes(_ name: String) -> Bool {
        guard answersMisspellings, !knownNames.contains(name) else { return false }
        return Suggestion.closest(to: name, among: knownNames, maxDistance: name.count <= 4 ? 1 : 2)
            == pattern.name
    }

    /// The names a template may use besides the item's fields: each parameter's, and who gave it.
    public var templateNames: [String] {
        ["command.author"] + pattern.parameters.map { "command.\($0.name)" }
    }
}

/// One action a rule asks for on one item, with what a plugin needs to render it and to tell
/// whether it is already done.
public struct ActionRequest: Sendable, Hashable {
    public var argument: ActionArgument
    /// The rule asking, by name.
    public var rule: String
    /// The hidden marker the bot leaves in its comments (`<!-- gitbay-bot:rule=... -->`), so a
    /// later run can see that this rule already spoke on this item and never says it twice.
    public var marker: String
    /// The command in a comment the action answers; `nil` for a rule that acts on what it sees.
    ///
    /// A reaction goes to its comment, and a reply to it is posted once, whatever is said after.
    public var command: PlannedCommand?

    public init(argument: ActionArgument, rule: String, marker: String, command: PlannedCommand? = nil) {
        self.argument = argument
        self.rule = rule
        self.marker = marker
        self.command = command
    }
}

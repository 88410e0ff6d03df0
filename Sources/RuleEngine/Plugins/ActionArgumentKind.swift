/// What an action takes after its name in a rule: `close`, `add-label: stale`, `comment: |...`.
public enum ActionArgumentKind: String, Sendable, Hashable {
    /// Nothing: `close`, `ready`, `cancel`.
    case none
    /// One label or a list of labels.
    case labels
    /// One user or a list of users; `@me` is the bot.
    case users
    /// Text, with `{{ field }}` templates.
    case text
    /// A milestone title, or `none` to clear it.
    case milestone
    /// Named values, as the action's ``ActionDefinition/parameters`` declare them.
    case parameters
}

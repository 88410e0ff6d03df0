import YAML

/// One entry of a rule's `do:`, checked against the plugins' actions.
public struct RuleAction: Sendable, Hashable {
    /// The argument as written, before templates are expanded or `@me` resolved.
    public enum Argument: Sendable, Hashable {
        case none
        /// Labels or users; `@me` stays `@me` until the run knows the bot's account.
        case names([String])
        case template(Template)
        /// A milestone title, or `nil` (`none`) to clear it.
        case milestone(String?)
        /// Named values, each a template (a word from a parameter's `values` is plain text).
        case parameters([String: Template])
    }

    /// The action's name, such as `add-label`.
    public var name: String
    public var argument: Argument
    public var location: SourceLocation

    public init(name: String, argument: Argument, location: SourceLocation) {
        self.name = name
        self.argument = argument
        self.location = location
    }
}

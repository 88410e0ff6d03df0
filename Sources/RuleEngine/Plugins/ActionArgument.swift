/// An action's argument with templates expanded and `@me` resolved, ready to render a command.
public enum ActionArgument: Sendable, Hashable, Codable {
    case none
    case names([String])
    case text(String)
    /// A milestone title, or `nil` to clear it.
    case milestone(String?)

    /// The names, for actions that take labels or users.
    public var names: [String] {
        if case .names(let names) = self { return names }
        return []
    }
}

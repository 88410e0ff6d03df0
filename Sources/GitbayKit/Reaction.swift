/// A reaction gitbay takes, in its display order (`internal/store/reactions.go`, `Reactions`).
///
/// The bot acknowledges a command with ``plusOne``; people react with any of them.
public enum Reaction: String, Codable, Sendable, Hashable, CaseIterable {
    case plusOne = "+1"
    case minusOne = "-1"
    case laugh, hooray, confused, heart, rocket, eyes

    /// The word to send in argv: the name, but for `-1` its emoji 👎, which gitbay takes as the same
    /// reaction and stores by name (`store.ParseReaction`), so no flag parser can read it as a flag.
    public var argument: String {
        self == .minusOne ? "👎" : rawValue
    }
}

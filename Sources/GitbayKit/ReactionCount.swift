/// One reaction on an item or a comment as `show` gives it: `{"reaction","count","me"}`
/// (`internal/control/react.go`, `ReactionOut`).
///
/// `me` is how the bot knows it already acknowledged a command: reactions are no events, so no
/// feed, webhook or `updated_at` tells it.
public struct ReactionCount: Codable, Sendable, Hashable {
    /// The reaction's name: `+1`, `-1`, `laugh`, `hooray`, `confused`, `heart`, `rocket` or `eyes`
    /// (`internal/store/reactions.go`, `Reactions`).
    public var reaction: String
    public var count: Int
    /// Whether the caller is among those who reacted so.
    public var me: Bool

    public init(reaction: String, count: Int, me: Bool) {
        self.reaction = reaction
        self.count = count
        self.me = me
    }
}

/// What `issue react` and `mr react` answer: `{"reaction", "comment"?, "removed"?}`
/// (`internal/control/react.go`, `Reacted`).
public struct ReactReply: Codable, Sendable, Hashable {
    /// The stored name, even when an emoji was sent.
    public var reaction: String
    /// The comment reacted to; `nil` for the item itself.
    public var comment: Int?
    /// `true` after `--remove`; `nil` otherwise.
    public var removed: Bool?

    public init(reaction: String, comment: Int? = nil, removed: Bool? = nil) {
        self.reaction = reaction
        self.comment = comment
        self.removed = removed
    }
}

import GitbayKit

extension Comment {
    /// The comment as gitbay sends it: `kind` is `comment` unless a forge-state file says otherwise.
    public var normalized: Comment {
        var comment = self
        comment.kind = comment.kind ?? .comment
        return comment
    }
}

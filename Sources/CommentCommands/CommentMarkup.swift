/// How a comment's body is written, which decides what is code or a quotation in it.
public enum CommentMarkup: Sendable, Hashable {
    /// Markdown, gitbay's default (`--format md`).
    case markdown
    /// Org (`--format org`).
    case org
}

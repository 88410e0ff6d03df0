/// Whether a comment was written by a person (`comment`) or by the server (`system`).
///
/// gitbay stores it but never sends it (`internal/control/thread.go` `commentOut`, `json:"-"`): it
/// marks system comments only by the author `system`, which ``Comment/isSystem`` falls back to.
/// Open-ended so a newer kind is kept.
public struct CommentKind: OpenEnumeration {
    public static let comment = CommentKind(rawValue: "comment")
    /// Written by the server, such as the retarget note of a stacked merge request.
    public static let system = CommentKind(rawValue: "system")

    public static var knownValues: [CommentKind] { [.comment, .system] }

    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

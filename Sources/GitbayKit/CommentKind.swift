/// Whether a comment was written by a person (`comment`) or by the server (`system`).
///
/// Newer servers send `kind`; older ones mark system comments only by the author `system`, which
/// ``Comment/isSystem`` accounts for. Open-ended so a newer kind is kept.
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

import Foundation
import GitbayKit

/// How the bot reads and writes its own comments, so that a comment is never posted twice by a
/// retried run yet is posted again once people have spoken since.
///
/// The engine gives every rule a hidden marker; the bot appends it to each comment it writes and
/// later recognises the comment by it, instead of trusting a side cache that a crash could lose.
public enum MarkedComments {
    /// Comments oldest first by creation time; ties keep the server's order.
    public static func chronological(_ comments: [Comment]) -> [Comment] {
        comments.enumerated()
            .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
            .map(\.element)
    }

    /// The newest comment a person (or a bot account) wrote; system comments are the server's.
    public static func newestNonSystem(_ comments: [Comment]) -> Comment? {
        // The last of `chronological(comments)` that is not a system note, found in one pass
        // without sorting: conditions ask this of every issue, so it must not allocate.
        var newest: Comment?
        for comment in comments where !comment.isSystem {
            if let current = newest, comment.createdAt < current.createdAt { continue }
            newest = comment
        }
        return newest
    }

    /// The body to post: the rendered text, then the marker on its own line, where a later run finds it.
    public static func body(_ text: String, marker: String) -> String {
        text.hasSuffix("\n") ? text + marker : text + "\n" + marker
    }

    /// The text of a `comment` action's argument; empty when the engine handed something else.
    public static func text(of argument: ActionArgument) -> String {
        if case .text(let text) = argument { return text }
        return ""
    }

    /// Whether the bot's marked comment still answers: a comment by `me` containing `marker`
    /// exists, and nobody else has written a non-system comment after the newest such one.
    ///
    /// A retried run therefore never doubles a comment, while a second episode (the issue went
    /// stale again after someone spoke) is commented on again.
    public static func markerStands(_ marker: String, me: String, in comments: [Comment]) -> Bool {
        let ordered = chronological(comments)
        guard let mine = ordered.lastIndex(where: { isMarked($0, marker: marker, me: me) }) else { return false }
        return !ordered[(mine + 1)...].contains { !$0.isSystem && $0.author != me }
    }

    /// Whether `comment` is the bot's own comment carrying `marker`.
    public static func isMarked(_ comment: Comment, marker: String, me: String) -> Bool {
        !comment.isSystem && comment.author == me && comment.body.contains(marker)
    }
}

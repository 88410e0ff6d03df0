import Foundation
import GitbayKit

/// How the bot reads and writes its own comments, so that a comment is never posted twice by a
/// retried run yet is posted again once people have spoken since.
///
/// The engine gives every rule a hidden marker; the bot appends it to each comment it writes and
/// later recognises the comment by it, instead of trusting a side cache that a crash could lose.
public enum MarkedComments {
    /// The newest comment a person (or a bot account) wrote; system comments are the server's.
    public static func newestNonSystem(_ comments: [Comment]) -> Comment? {
        // The last non-system comment in time order (ties in the server's order), found in one pass
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
    /// exists, and no person has written a non-system comment after the newest such one.
    ///
    /// A retried run therefore never doubles a comment, while a second episode (the issue went
    /// stale again after someone spoke) is commented on again. The accounts in `automation`
    /// (`bots:`) are passed over as `quiet` passes over them: a CI account's "CI: green" under a
    /// reminder is nobody answering it, and must not bring a second reminder.
    public static func markerStands(
        _ marker: String, me: String, passingOver automation: Set<String>, in comments: [Comment]
    ) -> Bool {
        // In time order (ties in the server's order) without sorting: two passes that allocate
        // nothing, as every planned comment action asks this.
        var mine: (at: Date, offset: Int)?
        for (offset, comment) in comments.enumerated() where isMarked(comment, marker: marker, me: me) {
            if let newest = mine, comment.createdAt < newest.at { continue }
            mine = (comment.createdAt, offset)
        }
        guard let mine else { return false }
        return !comments.enumerated().contains { offset, comment in
            !comment.isSystem && comment.author != me && !automation.contains(comment.author)
                && (comment.createdAt, offset) > (mine.at, mine.offset)
        }
    }

    /// The bot's newest comment carrying `marker` (ties in the server's order); `nil` when none.
    public static func newestMarked(_ marker: String, me: String, in comments: [Comment]) -> Comment? {
        var newest: Comment?
        for comment in comments where isMarked(comment, marker: marker, me: me) {
            if let current = newest, comment.createdAt < current.createdAt { continue }
            newest = comment
        }
        return newest
    }

    /// Whether `comment` is the bot's own comment carrying `marker`.
    public static func isMarked(_ comment: Comment, marker: String, me: String) -> Bool {
        !comment.isSystem && comment.author == me && holds(comment.body, marker)
    }

    /// Whether `text` holds `marker`, byte for byte: the bot wrote the marker itself, so no
    /// Unicode equivalence is wanted, and a plain scan of the UTF-8 is several times faster than
    /// Foundation's search or the standard library's generic one, which showed in planning a
    /// large forge.
    private static func holds(_ text: String, _ marker: String) -> Bool {
        var text = text
        var marker = marker
        return text.withUTF8 { haystack in
            marker.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard haystack.count >= needle.count else { return false }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    if memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 { return true }
                }
                return false
            }
        }
    }
}

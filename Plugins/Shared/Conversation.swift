import Foundation
import GitbayKit
import RuleEngine

/// What was said on an item and by whom, as the people-versus-automation fields read it.
///
/// A stale clock that any comment resets never runs out on an item that CI or a dependency bot
/// comments on, the bot's own notices included; these fields count only people, so rules can
/// judge what people do (`quiet`, `waiting_on`) and leave automation out.
public struct Conversation: Sendable {
    /// Who opened the item, and when: the first turn, whoever that was.
    public var author: String
    public var createdAt: Date
    public var comments: [Comment]
    /// A merge request's reviews: a review is a person's turn as much as a comment.
    public var reviews: [Review]

    public init(author: String, createdAt: Date, comments: [Comment], reviews: [Review] = []) {
        self.author = author
        self.createdAt = createdAt
        self.comments = comments
        self.reviews = reviews
    }

    /// The newest comment a person wrote: not a system comment, not by an automation account.
    ///
    /// One pass, no copy: conditions ask this of every item of a big forge.
    public func lastPersonComment(in context: ItemContext) -> Comment? {
        newestComment { !context.isAutomation($0.author) }
    }

    /// The newest turn a person took, a comment or a review, with its author.
    public func lastPersonTurn(in context: ItemContext) -> (author: String, at: Date)? {
        var newest = lastPersonComment(in: context).map { (author: $0.author, at: $0.createdAt) }
        for review in reviews
        where !context.isAutomation(review.reviewer) && review.createdAt >= (newest?.at ?? .distantPast) {
            newest = (review.reviewer, review.createdAt)
        }
        return newest
    }

    /// When a person last acted: their newest turn, or the item's creation when none has.
    public func lastPersonActivity(in context: ItemContext) -> Date {
        max(createdAt, lastPersonTurn(in: context)?.at ?? createdAt)
    }

    /// `author` when a person other than the item's author took the last turn, so the author is
    /// to answer; `others` when the author spoke last or nobody has.
    public func waitingOn(in context: ItemContext) -> String {
        guard let last = lastPersonTurn(in: context), last.author != author else { return "others" }
        return "author"
    }

    /// The bot's own newest comment: the notice a rule left, say.
    public func myLastComment(in context: ItemContext) -> Comment? {
        newestComment { $0.author == context.me }
    }

    /// The newest non-system comment `include` takes (ties in the server's order), in one pass.
    private func newestComment(where include: (Comment) -> Bool) -> Comment? {
        var newest: Comment?
        for comment in comments where !comment.isSystem && include(comment) {
            if let current = newest, comment.createdAt < current.createdAt { continue }
            newest = comment
        }
        return newest
    }
}

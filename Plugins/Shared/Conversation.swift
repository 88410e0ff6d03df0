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
    /// gitbay's last-update time, when known: it moves on edits, closing and reopening (and a
    /// merge request's pushes, draft and ready), without saying who made them.
    public var updatedAt: Date?
    /// What the feed and the journal name someone doing to the item (labels, edits, closes).
    public var activity: [ItemActivity]

    /// How far apart two times may be and still be one change: gitbay stamps a comment and the
    /// `updated_at` it moves, or a change and its event, in statements a moment apart
    /// (`internal/store/issues.go` `AddIssueComment`, `RecordEvent`).
    public static let sameChange: TimeInterval = 2

    public init(
        author: String, createdAt: Date, comments: [Comment], reviews: [Review] = [], updatedAt: Date? = nil,
        activity: [ItemActivity] = []
    ) {
        self.author = author
        self.createdAt = createdAt
        self.comments = comments
        self.reviews = reviews
        self.updatedAt = updatedAt
        self.activity = activity
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

    /// When a person last acted: their newest turn, what the feed shows them doing, a move of
    /// `updated_at` nothing explains, or else the item's creation.
    ///
    /// Where the bot cannot tell who acted, it assumes a person did: a stale rule then waits.
    public func lastPersonActivity(in context: ItemContext) -> Date {
        var newest = max(createdAt, lastPersonTurn(in: context)?.at ?? createdAt)
        for event in activity where event.at > newest && !context.isAutomation(event.actor) {
            newest = event.at
        }
        if let moved = unexplainedUpdate(), moved > newest { newest = moved }
        return newest
    }

    /// The item's `updated_at` when nothing the bot knows accounts for it, so someone it cannot
    /// name moved it (an edit, a close and reopen); `nil` when a comment, a review, a server note,
    /// an event or the bot's own journal stands at that moment, or it has not moved since creation.
    public func unexplainedUpdate() -> Date? {
        guard let updatedAt, updatedAt.timeIntervalSince(createdAt) > Self.sameChange else { return nil }
        func atThatMoment(_ date: Date) -> Bool { abs(date.timeIntervalSince(updatedAt)) <= Self.sameChange }
        if comments.contains(where: { atThatMoment($0.createdAt) })
            || reviews.contains(where: { atThatMoment($0.createdAt) })
            || activity.contains(where: { atThatMoment($0.at) })
        {
            return nil
        }
        return updatedAt
    }

    /// Whether an event names a person acting on the item after `date` (a maintainer removing a
    /// label, say): a marked notice older than that no longer stands.
    ///
    /// Only what names its actor counts here: an unexplained move of `updated_at` may be the
    /// bot's own (its clock is not the server's), and posting a notice again on a guess would
    /// double it, so where the bot cannot tell it keeps the notice it has.
    public func personActed(after date: Date, in context: ItemContext) -> Bool {
        activity.contains { $0.at > date && !context.isAutomation($0.actor) }
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

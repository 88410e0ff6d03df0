import Foundation
import GitbayKit
import RuleEngine

/// The fields that tell people from automation, defined once for every kind with a conversation.
///
/// Automation is the bot's own account and the accounts `bots:` names in gitbay-bot.yml. Every
/// field needs the item's detail (its comments, and a merge request's reviews).
public enum PeopleFields {
    /// The fields of a kind whose items are `noun`s, with `conversation` read from an item;
    /// `cached` when the kind's read cache keeps the comments current (an issue's do: every
    /// comment moves the version the cache is checked against).
    ///
    /// - Parameters:
    ///   - turns: what counts as a person's turn on such an item (`comment`, `comment or review`).
    ///   - turnsMoveUpdatedAt: whether each such turn moves the item's `updated_at`, as an issue's
    ///     comment does and a merge request's does not (docs/gitbay/domain.md#activity), which lets
    ///     `quiet` be bounded from the listing row on both sides.
    public static func fields(
        noun: String, turns: String, cached: Bool, turnsMoveUpdatedAt: Bool,
        conversation: @escaping @Sendable (ItemContext) -> Conversation?
    ) -> [FieldDefinition] {
        func field(
            _ name: String, _ type: FieldType, needs: Set<ReadNeed> = [.detail], doc: String,
            value: @escaping @Sendable (Conversation, ItemContext) -> FieldValue
        ) -> FieldDefinition {
            let definition = FieldDefinition(name, type, needs: needs, doc: doc) { context in
                conversation(context).map { value($0, context) } ?? .absent
            }
            return cached ? definition.cached() : definition
        }
        return [
            // `.activity` brings `updated_at`, whose unexplained moves count as a person's.
            field(
                "quiet", .duration, needs: [.detail, .activity],
                doc: "Time since a person last acted on the \(noun): their newest \(turns), what the feed shows "
                    + "them doing (labels, edits, closing and reopening), or a move of `updated_at` that neither the "
                    + "bot nor a `bots:` account explains (gitbay does not say who edited, so the bot assumes a "
                    + "person did); else its creation (docs/gitbay/domain.md#activity-by-people)."
            ) { conversation, context in
                .duration(max(0, context.now.timeIntervalSince(conversation.lastPersonActivity(in: context))))
            }
            .bounded(needs: turnsMoveUpdatedAt ? [.activity] : []) { context in
                conversation(context).flatMap { quietRange($0, in: context, turnsMoveUpdatedAt: turnsMoveUpdatedAt) }
            },
            field(
                "last_person_comment.author", .user,
                doc: "Who wrote the newest comment by a person (not the bot, not a `bots:` account); absent when none."
            ) { conversation, context in
                conversation.lastPersonComment(in: context).map { .text($0.author) } ?? .absent
            },
            field(
                "last_person_comment.at", .timestamp,
                doc: "When the newest comment by a person was written; absent when none."
            ) { conversation, context in
                conversation.lastPersonComment(in: context).map { .timestamp($0.createdAt) } ?? .absent
            },
            field(
                "waiting_on", .enumeration(["author", "others"]),
                doc: "author when a person other than the \(noun)'s author spoke last, so the author is to answer; "
                    + "others when the author spoke last or no person has."
            ) { conversation, context in
                .text(conversation.waitingOn(in: context))
            },
            field(
                "my_last_comment.age", .duration,
                doc: "Time since the bot's own newest comment (a notice it left); absent when it has none."
            ) { conversation, context in
                conversation.myLastComment(in: context).map {
                    .duration(max(0, context.now.timeIntervalSince($0.createdAt)))
                } ?? .absent
            },
        ]
    }

    /// What `quiet` can be before the item's comments (and reviews) are read.
    ///
    /// A person acted no earlier than the creation and the newest person's event the feed shows,
    /// which everything unread can only make more recent: that is the most `quiet` can be. Where
    /// every turn moves `updated_at`, a person acted no later than it (give or take the moment
    /// gitbay stamps the two apart, ``Conversation/sameChange``) or than that event: the least it
    /// can be. Elsewhere a comment may have come just now, so the least is zero. A label change
    /// moves no `updated_at`, so the feed's events bound it on both sides; and since `quiet` counts
    /// an `updated_at` that nothing explains as a person's, the same row bounds that too.
    static func quietRange(
        _ conversation: Conversation, in context: ItemContext, turnsMoveUpdatedAt: Bool
    ) -> FieldBounds.Range? {
        var earliest = conversation.createdAt
        for event in conversation.activity where event.at > earliest && !context.isAutomation(event.actor) {
            earliest = event.at
        }
        var latest = context.now
        if turnsMoveUpdatedAt {
            guard let updatedAt = conversation.updatedAt else { return nil }
            latest = max(earliest, updatedAt.addingTimeInterval(Conversation.sameChange))
        }
        return FieldBounds.Range(
            lower: .duration(max(0, context.now.timeIntervalSince(latest))),
            upper: .duration(max(0, context.now.timeIntervalSince(earliest))))
    }
}

import Foundation
import GitbayKit
import RuleEngine

/// The actions issues and merge requests share (labels and marked comments), defined once.
///
/// gitbay gives both kinds the same label set and the same comment rules, so only the command
/// that carries the change and the place the current labels or comments are read differ.
public enum SharedActions {
    /// `add-label` and `remove-label`: one label command naming only what is still to change.
    ///
    /// - Parameters:
    ///   - command: the command's name for the docs (`issue label`).
    ///   - labels: the item's current labels.
    ///   - render: the command for (repository, number, labels to add, labels to remove).
    public static func labels(
        command: String, labels: @escaping @Sendable (ItemContext) -> [String],
        render: @escaping @Sendable (RepositoryPath, Int, [String], [String]) throws -> ControlCommand
    ) -> [ActionDefinition] {
        [
            ActionDefinition(
                "add-label", argument: .labels, needs: [.labels],
                doc: "Adds the labels it lacks, in one `\(command)` command; done when it has them all.",
                command: { request, context in
                    try render(
                        context.repository.path, context.item.number,
                        NameChange.missing(request.argument.names, from: labels(context)), [])
                },
                isDone: { request, context in
                    NameChange.missing(request.argument.names, from: labels(context)).isEmpty
                }
            ),
            ActionDefinition(
                "remove-label", argument: .labels, needs: [.labels],
                doc: "Removes the labels it still has, in one `\(command)` command; done when none is left.",
                command: { request, context in
                    try render(
                        context.repository.path, context.item.number, [],
                        NameChange.remaining(request.argument.names, in: labels(context)))
                },
                isDone: { request, context in
                    NameChange.remaining(request.argument.names, in: labels(context)).isEmpty
                }
            ),
        ]
    }

    /// `comment`: the text with the rule's hidden marker, never posted twice while it stands.
    ///
    /// - Parameters:
    ///   - conversation: the item's comments and what people did to it.
    ///   - cached: whether every comment moves the version of the kind's cached details, so the
    ///     "last word" check may judge a cached detail (``ActionDefinition/isCached``).
    ///   - render: the command for (repository, number, body).
    public static func comment(
        conversation: @escaping @Sendable (ItemContext) -> Conversation?, cached: Bool,
        render: @escaping @Sendable (RepositoryPath, Int, String) throws -> ControlCommand
    ) -> ActionDefinition {
        ActionDefinition(
            "comment", argument: .text, needs: [.detail],
            doc: "Posts the text with the rule's hidden marker; done while the bot's marked comment is the last word "
                + "and no person has acted on the item since.",
            command: { request, context in
                try render(
                    context.repository.path, context.item.number,
                    MarkedComments.body(MarkedComments.text(of: request.argument), marker: request.marker))
            },
            isDone: { request, context in
                // A person who acted since (removed the label, edited the item) has answered the
                // notice as much as a comment would: a new episode gets a new one.
                guard let conversation = conversation(context),
                    let mine = MarkedComments.newestMarked(request.marker, me: context.me, in: conversation.comments),
                    MarkedComments.markerStands(request.marker, me: context.me, in: conversation.comments)
                else { return false }
                return !conversation.personActed(after: mine.createdAt + Conversation.sameChange, in: context)
            }
        ).cached(cached)
    }
}

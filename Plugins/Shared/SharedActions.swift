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

    /// `react`: a reaction by the bot on the item, or on one of its comments (`comment`, which a
    /// command's acknowledgement names); done when that reaction is already the bot's.
    ///
    /// gitbay files no event for it and moves no `updated_at` (`internal/control/react.go`), so
    /// only `show`'s `me` tells it is there, and recording the write drops the cached detail.
    ///
    /// - Parameters:
    ///   - conversation: the item's comments and reactions.
    ///   - render: the command for (repository, number, comment, reaction).
    public static func react(
        reactions: @escaping @Sendable (ItemContext) -> [ReactionCount]?,
        conversation: @escaping @Sendable (ItemContext) -> Conversation?,
        render: @escaping @Sendable (RepositoryPath, Int, Int?, Reaction) throws -> ControlCommand
    ) -> ActionDefinition {
        @Sendable func target(_ request: ActionRequest) -> (comment: Int?, reaction: Reaction) {
            let comment = request.argument.parameter("comment").flatMap { Int($0) } ?? request.command?.comment
            let reaction = request.argument.parameter("reaction").flatMap(Reaction.init(rawValue:)) ?? .plusOne
            return (comment, reaction)
        }
        return ActionDefinition(
            "react", argument: .parameters,
            parameters: [
                ActionParameter(
                    "reaction", values: Reaction.allCases.map(\.rawValue), required: false,
                    doc: "One of gitbay's: " + Reaction.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                        + "; `+1` when left out."),
                ActionParameter(
                    "comment", required: false,
                    doc: "The id of the comment to react to; left out, the command's comment on a rule with "
                        + "`command:`, else the item itself.",
                    refusal: { text in
                        Int(text).map { $0 >= 1 } == true || text.contains("{{") ? nil : "a comment id is a number"
                    }),
            ],
            needs: [.detail],
            doc: "Reacts to the item, or to a comment (a command's, to acknowledge it); done when the bot's reaction "
                + "is there.",
            command: { request, context in
                let (comment, reaction) = target(request)
                return try render(context.repository.path, context.item.number, comment, reaction)
            },
            isDone: { request, context in
                let (comment, reaction) = target(request)
                let given: [ReactionCount]?
                if let comment {
                    given = conversation(context)?.comments.first { $0.id == comment }?.reactions
                } else {
                    given = reactions(context)
                }
                return given?.contains { $0.reaction == reaction.rawValue && $0.me } ?? false
            }
        ).cached()
    }

    /// The action and argument that acknowledge the command in comment `id`: the bot's `+1` on it.
    public static func acknowledgement(of id: Int) -> (action: String, argument: [String: String]) {
        ("react", ["comment": String(id), "reaction": Reaction.plusOne.rawValue])
    }

    /// Whether the journal's `argv` is a reaction of `family` (`issue`, `mr`) on comment `id`.
    public static func acknowledges(_ argv: [String], family: String, comment id: Int) -> Bool {
        guard argv.count > 2, argv[0] == family, argv[1] == "react", !argv.contains("--remove"),
            let flag = argv.firstIndex(of: "--comment"), flag + 1 < argv.count
        else { return false }
        return argv[flag + 1] == String(id)
    }

    /// `comments` with the next id from `next` on each that has none, in order.
    public static func numbering(_ comments: [Comment], from next: inout Int) -> [Comment] {
        comments.map { comment in
            guard comment.id == nil else { return comment }
            var numbered = comment
            numbered.id = next
            next += 1
            return numbered
        }
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
                if request.command != nil {
                    // A reply to a command is said once, whatever is said after it.
                    return conversation(context)?.comments.contains {
                        MarkedComments.isMarked($0, marker: request.marker, me: context.me)
                    } ?? false
                }
                // A person who acted since (removed the label, edited the item) has answered the
                // notice as much as a comment would: a new episode gets a new one.
                guard let conversation = conversation(context),
                    let mine = MarkedComments.newestMarked(request.marker, me: context.me, in: conversation.comments),
                    MarkedComments.markerStands(
                        request.marker, me: context.me, passingOver: context.automation, in: conversation.comments)
                else { return false }
                return !conversation.personActed(after: mine.createdAt + Conversation.sameChange, in: context)
            }
        ).cached(cached)
    }
}

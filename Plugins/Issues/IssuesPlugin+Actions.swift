import GitbayKit
import RuleEngine

extension IssuesPlugin {
    /// Every issue action, in the order the docs list them.
    static let actions: [ActionDefinition] = [
        ActionDefinition(
            "add-label", argument: .labels, needs: [.labels],
            doc: "Adds the labels the issue lacks, in one `issue label` command; done when it has them all.",
            command: { request, context in
                try IssueLabelCommand(
                    repository: context.repository.path, number: context.item.number,
                    add: NameChange.missing(request.argument.names, from: labels(context))
                ).control
            },
            isDone: { request, context in NameChange.missing(request.argument.names, from: labels(context)).isEmpty }
        ),
        ActionDefinition(
            "remove-label", argument: .labels, needs: [.labels],
            doc: "Removes the labels the issue still has, in one `issue label` command; done when none is left.",
            command: { request, context in
                try IssueLabelCommand(
                    repository: context.repository.path, number: context.item.number,
                    remove: NameChange.remaining(request.argument.names, in: labels(context))
                ).control
            },
            isDone: { request, context in
                NameChange.remaining(request.argument.names, in: labels(context)).isEmpty
            }
        ),
        ActionDefinition(
            "comment", argument: .text, needs: [.detail],
            doc: "Posts the text with the rule's hidden marker; done while the bot's marked comment is the last word.",
            command: { request, context in
                try IssueCommentCommand(
                    repository: context.repository.path, number: context.item.number,
                    body: MarkedComments.body(MarkedComments.text(of: request.argument), marker: request.marker)
                ).control
            },
            isDone: { request, context in
                MarkedComments.markerStands(request.marker, me: context.me, in: context.issue?.comments ?? [])
            }
        ),
        ActionDefinition(
            "close", doc: "Closes the issue; done when it is closed.",
            command: { _, context in
                try IssueCloseCommand(repository: context.repository.path, number: context.item.number).control
            },
            isDone: { _, context in context.issue?.state == .closed }
        ),
        ActionDefinition(
            "reopen", doc: "Reopens the issue; done when it is open.",
            command: { _, context in
                try IssueReopenCommand(repository: context.repository.path, number: context.item.number).control
            },
            isDone: { _, context in context.issue?.state == .open }
        ),
        ActionDefinition(
            "assign", argument: .users, needs: [.detail],
            doc: "Assigns the users not yet assigned, in one `issue assign` command; done when all are.",
            command: { request, context in
                try IssueAssignCommand(
                    repository: context.repository.path, number: context.item.number,
                    add: NameChange.missing(request.argument.names, from: assignees(context))
                ).control
            },
            isDone: { request, context in
                NameChange.missing(request.argument.names, from: assignees(context)).isEmpty
            }
        ),
        ActionDefinition(
            "unassign", argument: .users, needs: [.detail],
            doc: "Unassigns the users still assigned, in one `issue assign` command; done when none is.",
            command: { request, context in
                try IssueAssignCommand(
                    repository: context.repository.path, number: context.item.number,
                    remove: NameChange.remaining(request.argument.names, in: assignees(context))
                ).control
            },
            isDone: { request, context in
                NameChange.remaining(request.argument.names, in: assignees(context)).isEmpty
            }
        ),
        ActionDefinition(
            "milestone", argument: .milestone,
            doc: "Sets the milestone by title, or clears it with `none`; done when the issue already has that.",
            command: { request, context in
                try IssueMilestoneCommand(
                    repository: context.repository.path, number: context.item.number,
                    milestone: wantedMilestone(request, context)
                ).control
            },
            isDone: { request, context in context.issue?.milestone == wantedMilestone(request, context) }
        ),
    ]

    private static func labels(_ context: ItemContext) -> [String] {
        context.issue?.labels ?? []
    }

    private static func assignees(_ context: ItemContext) -> [String] {
        context.issue?.assignees ?? []
    }

    /// The milestone the action asks for; an argument of another kind keeps the current one, so a
    /// mistaken argument can never clear a milestone.
    private static func wantedMilestone(_ request: ActionRequest, _ context: ItemContext) -> String? {
        if case .milestone(let title) = request.argument { return title }
        return context.issue?.milestone
    }
}

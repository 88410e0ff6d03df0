import GitbayKit
import RuleEngine
import SharedPluginActions

extension IssuesPlugin {
    /// Every issue action, in the order the docs list them.
    static let actions: [ActionDefinition] =
        SharedActions.labels(command: "issue label", labels: labels) { repository, number, add, remove in
            try IssueLabelCommand(repository: repository, number: number, add: add, remove: remove).control
        }
        + [
            SharedActions.comment(
                conversation: conversation, cached: true,
                render: { repository, number, body in
                    try IssueCommentCommand(repository: repository, number: number, body: body).control
                }),
            SharedActions.react(
                reactions: { $0.issue?.reactions }, conversation: conversation,
                render: { repository, number, comment, reaction in
                    try ReactCommand(
                        .issue, repository: repository, number: number, comment: comment, reaction: reaction
                    )
                    .control
                }),
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

import GitbayKit
import RuleEngine
import SharedPluginActions

extension MergeRequestsPlugin {
    /// Every merge request action, in the order the docs list them.
    static let actions: [ActionDefinition] =
        [
            ActionDefinition(
                "ready", needs: [.detail],
                doc: "Marks a draft ready, once per landing: done when not a draft, or when the rule's marked "
                    + "comment follows the newest retarget note (a person who re-drafts it is respected).",
                command: { _, context in
                    try MergeRequestReadyCommand(repository: context.repository.path, number: context.item.number)
                        .control
                },
                isDone: { request, context in
                    guard let mr = context.mergeRequest, mr.draft else { return true }
                    return readiedForThisLanding(mr, marker: request.marker, me: context.me)
                },
                refusal: { context in
                    guard let mr = context.mergeRequest, mr.state == .merged || mr.state == .closed else { return nil }
                    return "!\(mr.number) is \(mr.state.rawValue); only an open merge request can be marked ready"
                },
                warning: { context in
                    guard let mr = context.mergeRequest, mr.queued != nil else { return nil }
                    return "mr ready starts the queued merge of !\(mr.number) at once"
                },
                companion: (
                    "comment",
                    "the rule's marked comment is how the bot remembers it readied this landing; without it, "
                        + "a merge request someone marks draft again is readied again on the next run"
                )
            ).cached(),
            ActionDefinition(
                "draft", doc: "Marks it a draft; done when it is one.",
                command: { _, context in
                    try MergeRequestDraftCommand(repository: context.repository.path, number: context.item.number)
                        .control
                },
                isDone: { _, context in context.mergeRequest?.draft ?? false }
            ),
        ]
        + SharedActions.labels(command: "mr label", labels: labels) { repository, number, add, remove in
            try MergeRequestLabelCommand(repository: repository, number: number, add: add, remove: remove).control
        }
        + [
            SharedActions.comment(
                // A comment on a merge request moves nothing the listing shows (store/mrs.go
                // AddMRComment), so who spoke last is always read fresh.
                comments: { $0.mergeRequest?.comments ?? [] }, cached: false,
                render: { repository, number, body in
                    try MergeRequestCommentCommand(repository: repository, number: number, body: body).control
                }),
            ActionDefinition(
                "close", doc: "Closes it without merging; done when it is closed or merged.",
                command: { _, context in
                    try MergeRequestCloseCommand(repository: context.repository.path, number: context.item.number)
                        .control
                },
                isDone: { _, context in context.mergeRequest.map { $0.state == .closed || $0.state == .merged } ?? false
                }
            ),
        ]

    private static func labels(_ context: ItemContext) -> [String] {
        context.mergeRequest?.labels ?? []
    }

    /// Whether the bot already spoke (with this rule's marker) since the newest retarget note, so
    /// readying was done for this landing and a later re-draft is a person's decision.
    static func readiedForThisLanding(_ mr: MergeRequest, marker: String, me: String) -> Bool {
        let since = RetargetNote.newest(in: mr.comments)?.at
        return mr.comments.contains { comment in
            MarkedComments.isMarked(comment, marker: marker, me: me) && since.map { comment.createdAt > $0 } ?? true
        }
    }
}

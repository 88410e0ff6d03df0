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
            setStatus,
            merge,
        ]
        + SharedActions.labels(command: "mr label", labels: labels) { repository, number, add, remove in
            try MergeRequestLabelCommand(repository: repository, number: number, add: add, remove: remove).control
        }
        + [
            SharedActions.comment(
                // A comment on a merge request moves nothing the listing shows (store/mrs.go
                // AddMRComment), so who spoke last is always read fresh.
                conversation: conversation, cached: false,
                render: { repository, number, body in
                    try MergeRequestCommentCommand(repository: repository, number: number, body: body).control
                }),
            SharedActions.react(
                reactions: { $0.mergeRequest?.reactions }, conversation: conversation,
                render: { repository, number, comment, reaction in
                    try ReactCommand(
                        .mergeRequest, repository: repository, number: number, comment: comment, reaction: reaction
                    ).control
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

    /// `merge`: `mr merge`, sent once every gate passes.
    ///
    /// The bot keeps its own queue rather than gitbay's (`mr merge --when-ready`): gitbay retries a
    /// queued merge on every push and status as the account that queued it
    /// (`internal/control/mergequeue.go`, `attemptQueuedMerge`), so a head pushed after a writer's
    /// `/merge`, by someone without write access, would be merged on the bot's rights with nobody
    /// re-checking the rule, the giver's access or a `/hold`. Instead the action waits while
    /// gitbay's gates (`mr show`'s `gates.unmet`) do not pass, and every run judges it again: the
    /// rule, who gave the command, and the gates, before it merges; a command merges only the
    /// head it was given on (``HeadBinding``). The bot never retries a
    /// refusal: a gate that closed meanwhile (exit 4) and a merged or closed merge request (exit
    /// 2) are reported as they are.
    private static let merge = ActionDefinition(
        "merge", argument: .parameters,
        parameters: [
            ActionParameter(
                "strategy", values: MergeStrategy.allCases.map(\.rawValue), required: false,
                doc: "`ff`, `merge`, `squash` or `rebase`; left out, gitbay fast-forwards when it can and merges "
                    + "otherwise.")
        ],
        needs: [.detail], commandNeeds: [.revisions],
        doc: "Merges it (`mr merge`) once every gate passes, and waits while one does not (gitbay's unmet gates, "
            + "judged again each run); done when it is merged. For a command, only the head the command was given "
            + "on (one `mr revisions` read): a head pushed since refuses it.",
        command: { request, context in
            try MergeRequestMergeCommand(
                repository: context.repository.path, number: context.item.number,
                strategy: request.argument.parameter("strategy").flatMap(MergeStrategy.init(rawValue:)),
                whenReady: false
            ).control
        },
        isDone: { _, context in context.mergeRequest?.state == .merged },
        refusal: { context in
            guard let mr = context.mergeRequest, mr.state == .closed || mr.state == .sourceGone else { return nil }
            return "!\(mr.number) is \(mr.state.rawValue); only an open merge request can be merged"
        },
        commandRefusal: { command, context in
            guard let mr = context.mergeRequest else { return nil }
            return HeadBinding(command: command, mergeRequest: mr, revisions: context.revisions).refusal
        },
        wait: { _, context in
            guard let unmet = context.mergeRequest?.gates?.unmet, !unmet.isEmpty else { return nil }
            return "gitbay's gates do not pass: " + unmet.joined(separator: "; ")
        })

    /// `set-status`: a commit status on the head, saying on the merge request what it waits for.
    ///
    /// Done when the head as read carries the context with that state and description, so it is
    /// sent again after a push (a new head has none) or when the rule's text renders otherwise.
    /// `mr show` gives no descriptions, so it reads `status list` of the head (``ReadNeed/statuses``).
    private static let setStatus = ActionDefinition(
        "set-status", argument: .parameters,
        parameters: [
            ActionParameter(
                "context", doc: "The status's name, such as `gitbay-bot/stack`; `{{ field }}` placeholders allowed.",
                refusal: { context in
                    StatusSetCommand.isReserved(context)
                        ? "a 'ci/' context is gitbay's builds' (status set refuses it with exit 4); "
                            + "name it otherwise, such as 'gitbay-bot/\(context.dropFirst(3))'" : nil
                }),
            ActionParameter(
                "state", values: StatusSetCommand.states.map(\.rawValue),
                doc:
                    "`pending`, `failure` and `error` block a merge where the repository requires checks; `success` never does."
            ),
            ActionParameter(
                "description", required: false,
                doc: "The text shown beside the state, with `{{ field }}` placeholders; empty when left out."),
        ],
        needs: [.statuses],
        doc: "Sets a commit status on its head (`status set`); done when the head carries that context with "
            + "that state and description (`status list`), so a push or a new text sends it again.",
        command: { request, context in
            try StatusSetCommand(
                repository: context.repository.path, sha: context.mergeRequest?.headSHA ?? "",
                context: request.argument.parameter("context") ?? "",
                state: CheckState(rawValue: request.argument.parameter("state") ?? ""),
                description: request.argument.parameter("description") ?? ""
            ).control
        },
        isDone: { request, context in
            context.headStatuses.contains { status in
                status.context == request.argument.parameter("context")
                    && status.state.rawValue == request.argument.parameter("state")
                    && status.description == request.argument.parameter("description") ?? ""
            }
        })

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

import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

extension MergeRequestsPlugin {
    /// Every merge request field, in the order the docs list them.
    static let fields: [FieldDefinition] =
        [
            field("number", .count, doc: "The merge request's number in its repository.") { mr, _ in .count(mr.number)
            },
            field("title", .text, doc: "The merge request's title.") { mr, _ in .text(mr.title) },
            field(
                "state", .enumeration(MergeRequestState.knownValues.map(\.rawValue)),
                doc: "open, merged, closed, or source_gone when its source branch was deleted; a draft is open."
            ) { mr, _ in .text(mr.state.rawValue) }.selecting(),
            field("author", .user, doc: "Who opened the merge request.") { mr, _ in .text(mr.author) },
            // The listing's rows (`mr list --q`) carry no branches, head or stack: those come with
            // `mr show`, and a push or a retarget moves the version its cached copy is checked against.
            field(
                "source", .text, needs: [.detail],
                doc: "The source branch; `owner/name:branch` for a fork; empty when gone."
            ) { mr, _ in .text(mr.source) }.cached(),
            field("target_ref", .text, needs: [.detail], doc: "The target branch.") { mr, _ in .text(mr.targetRef) }
                .cached(),
            field("head_sha", .text, needs: [.detail], doc: "The head commit.") { mr, _ in .text(mr.headSHA) }.cached(),
            field("milestone", .text, doc: "The milestone's title; absent when it has none.") { mr, _ in
                mr.milestone.map { .text($0) } ?? .absent
            },
            field("created_at", .timestamp, doc: "When the merge request was opened.") { mr, _ in
                .timestamp(mr.createdAt)
            },
            field("draft", .boolean, doc: "Whether it is a draft (a flag on an open merge request, not a state).") {
                mr, _ in .boolean(mr.draft)
            },
            field("labels", .labelSet, needs: [.labels], doc: "The merge request's label names.") { mr, _ in
                .set(mr.labels)
            },
            field(
                "stacked_on", .count, needs: [.detail],
                doc: "The number of the open merge request this one is stacked on; absent when none."
            ) { mr, _ in
                mr.stackedOn.map { .count($0.number) } ?? .absent
            }.cached(),
            // The retarget note a landing is read from comes with the retarget, which moves target_ref
            // and updated_at (store/mrs.go SetMRTarget), so both stack fields may come from the cache.
            field(
                "stack.landed", .boolean, needs: [.detail, .allMergeRequests],
                doc: "Whether the MR below it merged: an open MR whose newest `retargeted from A to B: !N merged` "
                    + "system comment names its current target and a merged !N (trusted when !N is not listed)."
            ) { mr, context in
                .boolean(StackLanding.derive(for: mr, in: context.repository) != nil)
            }.cached(),
            field(
                "stack.parent", .count, needs: [.detail, .allMergeRequests],
                doc: "The number of the merged MR it was stacked on, when stack.landed; absent otherwise."
            ) { mr, context in
                StackLanding.derive(for: mr, in: context.repository).map { .count($0.parent) } ?? .absent
            }.cached(),
            field(
                "checks", .enumeration(CheckState.knownValues.map(\.rawValue) + ["none"]), needs: [.detail],
                doc: "The combined (worst) state of the head's checks (pending after a push, then the build's "
                    + "result: examples/checks); none when it has none."
            ) { mr, _ in
                .text(mr.checksCombined?.rawValue ?? "none")
            },
            field(
                "approvals", .count, needs: [.detail],
                doc: "Reviewers whose newest review approves the current head and counts toward the approval gate."
            ) { mr, _ in
                .count(approvals(mr.reviews))
            },
            field(
                "queued", .boolean, needs: [.detail],
                doc: "Whether a merge is queued (`mr merge --when-ready`), which `mr ready` may start at once."
            ) { mr, _ in
                .boolean(mr.queued != nil)
            },
            field("idle", .duration, needs: [.activity], doc: "Time since its last update; absent when unknown.") {
                mr, context in
                mr.updatedAt.map { .duration(max(0, context.now.timeIntervalSince($0))) } ?? .absent
            },
        ]
        // A merge request's comments do not move the version its read cache is checked against.
        + PeopleFields.fields(
            noun: "merge request", turns: "comment or review", cached: false, turnsMoveUpdatedAt: false,
            conversation: conversation)

    /// `label_age.LABEL` and `comment_age.RULE`.
    static let families = AgeFamilies.families(
        noun: "merge request", cached: false,
        labels: { $0.item.box(as: MergeRequestRecord.self)?.record.mergeRequest.labels }, conversation: conversation)

    /// What was said on the merge request and what was seen done to it, for the people fields
    /// and the comment action alike; `nil` for another kind of item.
    static func conversation(_ context: ItemContext) -> Conversation? {
        context.item.box(as: MergeRequestRecord.self).map {
            let mr = $0.record.mergeRequest
            return Conversation(
                author: mr.author, createdAt: mr.createdAt, comments: mr.comments, reviews: mr.reviews,
                updatedAt: mr.updatedAt, activity: context.repository.activity(of: context.item))
        }
    }

    /// A field whose value is derived from the merge request; another kind of item answers absent.
    private static func field(
        _ name: String, _ type: FieldType, needs: Set<ReadNeed> = [], doc: String,
        value: @escaping @Sendable (MergeRequest, ItemContext) -> FieldValue
    ) -> FieldDefinition {
        FieldDefinition(name, type, needs: needs, doc: doc) { context in
            // Read in place through the box, not copied out (`context.mergeRequest`): a measurable share of evaluation.
            guard let box = context.item.box(as: MergeRequestRecord.self) else { return .absent }
            return value(box.record.mergeRequest, context)
        }
    }

    /// Reviewers whose newest review approves, is not stale and counts; a review from a server
    /// that predates `counts` is taken to count, as it did then.
    static func approvals(_ reviews: [Review]) -> Int {
        var newest: [String: Review] = [:]
        for review in reviews where newest[review.reviewer].map({ $0.createdAt <= review.createdAt }) ?? true {
            newest[review.reviewer] = review
        }
        return newest.values.filter { $0.verdict == .approve && !$0.stale && $0.counts != false }.count
    }
}

import Foundation
import GitbayKit
import RuleEngine
import SharedPluginActions

extension IssuesPlugin {
    /// Every issue field, in the order the docs list them.
    static let fields: [FieldDefinition] =
        [
            field("number", .count, doc: "The issue's number in its repository.") { issue, _ in .count(issue.number) },
            field("title", .text, doc: "The issue's title.") { issue, _ in .text(issue.title) },
            field("state", .enumeration(IssueState.knownValues.map(\.rawValue)), doc: "Whether the issue is open.") {
                issue, _ in .text(issue.state.rawValue)
            }.selecting(),
            field("author", .user, doc: "Who opened the issue.") { issue, _ in .text(issue.author) },
            field("milestone", .text, doc: "The milestone's title; absent when the issue has none.") { issue, _ in
                issue.milestone.map { .text($0) } ?? .absent
            },
            field("created_at", .timestamp, doc: "When the issue was opened.") { issue, _ in .timestamp(issue.createdAt)
            },
            field(
                "updated_at", .timestamp, needs: [.activity],
                doc: "gitbay's last-update time: edits, close, reopen and comments move it; labels do not."
            ) { issue, _ in
                issue.updatedAt.map { .timestamp($0) } ?? .absent
            },
            field("age", .duration, doc: "Time since the issue was opened.") { issue, context in
                .duration(span(from: issue.createdAt, to: context.now))
            },
            field(
                "idle", .duration, needs: [.activity],
                doc:
                    "Time since updated_at; a comment resets it but a label does not, so `stale` can be added and kept."
            ) { issue, context in
                issue.updatedAt.map { .duration(span(from: $0, to: context.now)) } ?? .absent
            },
            field("labels", .labelSet, needs: [.labels], doc: "The issue's label names.") { issue, _ in
                .set(issue.labels)
            },
            // People's comments move the issue's updated_at, the read cache's version, so the fields
            // judged on them may come from the cache; an assignment moves nothing, so assignees may not.
            field("assignees", .userSet, needs: [.detail], doc: "Who is assigned.") { issue, _ in
                .set(issue.assignees)
            },
            field(
                "comments", .count, needs: [.detail], doc: "How many comments people wrote (system comments excluded)."
            ) {
                issue, _ in .count(issue.comments.reduce(0) { $0 + ($1.isSystem ? 0 : 1) })
            }.cached(),
            field(
                "last_comment.author", .user, needs: [.detail],
                doc: "Who wrote the newest non-system comment; absent when there is none."
            ) { issue, _ in
                MarkedComments.newestNonSystem(issue.comments).map { .text($0.author) } ?? .absent
            }.cached(),
            field(
                "last_comment.at", .timestamp, needs: [.detail],
                doc: "When the newest non-system comment was written; absent when there is none."
            ) { issue, _ in
                MarkedComments.newestNonSystem(issue.comments).map { .timestamp($0.createdAt) } ?? .absent
            }.cached(),
        ]
        + PeopleFields.fields(
            noun: "issue", turns: "comment", cached: true, turnsMoveUpdatedAt: true, conversation: conversation)
        + [
            field(
                "tracking_issue", .boolean, needs: [.dependencies],
                doc: "Whether this is the dependency checker's tracking issue, which the checker rewrites itself; "
                    + "false when the checker is off."
            ) { issue, context in
                guard let status = context.repository.dependencies, status.enabled else { return .boolean(false) }
                return .boolean(status.issueNumber == issue.number)
            }
        ]

    /// `label_age.LABEL` and `comment_age.RULE`.
    static let families = AgeFamilies.families(
        noun: "issue", cached: true, labels: { $0.item.box(as: IssueRecord.self)?.record.issue.labels },
        conversation: conversation)

    /// What was said on the issue and what was seen done to it, for the people fields and the
    /// comment action alike; `nil` for another kind of item.
    static func conversation(_ context: ItemContext) -> Conversation? {
        context.item.box(as: IssueRecord.self).map {
            let issue = $0.record.issue
            return Conversation(
                author: issue.author, createdAt: issue.createdAt, comments: issue.comments,
                updatedAt: issue.updatedAt, activity: context.repository.activity(of: context.item))
        }
    }

    /// A field whose value is derived from the issue; another kind of item answers absent.
    private static func field(
        _ name: String, _ type: FieldType, needs: Set<ReadNeed> = [], doc: String,
        value: @escaping @Sendable (GitbayKit.Issue, ItemContext) -> FieldValue
    ) -> FieldDefinition {
        FieldDefinition(name, type, needs: needs, doc: doc) { context in
            // Read in place through the box, not copied out (`context.issue`): a measurable share of evaluation.
            guard let box = context.item.box(as: IssueRecord.self) else { return .absent }
            return value(box.record.issue, context)
        }
    }

    /// Seconds from `start` to `now`, never negative, so a server clock ahead of ours reads as "just now".
    private static func span(from start: Date, to now: Date) -> Double {
        max(0, now.timeIntervalSince(start))
    }
}

import Foundation

/// One row of `mr list <repo>`: no labels and no review requests on the wire.
///
/// Like issue rows, MR list rows are label-free, so ``labels`` and ``reviewRequests`` stay `nil`
/// ("not sent") rather than pretending to be empty. `stacked_on` is present while both MRs are open,
/// which is what the stacked-ready rule polls.
public struct MergeRequestRow: Codable, Sendable, Hashable {
    public var number: Int
    public var title: String
    public var state: MergeRequestState
    /// Whether the MR is a draft (absent means not); a draft is `state: open` with this flag.
    public var draft: Bool
    public var author: String
    /// The source branch; `owner/name:branch` for a fork; `""` when the source repository is gone.
    public var source: String
    /// The target branch name, without `refs/heads/`.
    public var targetRef: String
    /// The current head commit (40 hex).
    public var headSHA: String
    public var milestone: String?
    /// Always `nil` from `mr list`: the server does not send labels on list rows.
    public var labels: [String]?
    /// Always `nil` from `mr list`: the server does not send review requests on list rows.
    public var reviewRequests: [String]?
    /// The open MR this one is stacked on, while both are open.
    public var stackedOn: MergeRequestRef?
    public var createdAt: Date
    public var mergedAt: Date?
    /// Who merged it; empty or absent for imports.
    public var mergedBy: String?
    public var closedAt: Date?
    public var closedBy: String?
    /// The MR that replaces this one (`mr close --by`).
    public var supersededBy: Int?
    /// A pending `mr merge --when-ready`.
    public var queued: QueuedMerge?

    public init(
        number: Int, title: String, state: MergeRequestState, draft: Bool = false, author: String,
        source: String, targetRef: String, headSHA: String, milestone: String? = nil, labels: [String]? = nil,
        reviewRequests: [String]? = nil, stackedOn: MergeRequestRef? = nil, createdAt: Date, mergedAt: Date? = nil,
        mergedBy: String? = nil, closedAt: Date? = nil, closedBy: String? = nil, supersededBy: Int? = nil,
        queued: QueuedMerge? = nil
    ) {
        self.number = number
        self.title = title
        self.state = state
        self.draft = draft
        self.author = author
        self.source = source
        self.targetRef = targetRef
        self.headSHA = headSHA
        self.milestone = milestone
        self.labels = labels
        self.reviewRequests = reviewRequests
        self.stackedOn = stackedOn
        self.createdAt = createdAt
        self.mergedAt = mergedAt
        self.mergedBy = mergedBy
        self.closedAt = closedAt
        self.closedBy = closedBy
        self.supersededBy = supersededBy
        self.queued = queued
    }

    private enum CodingKeys: String, CodingKey {
        case number
        case title
        case state
        case draft
        case author
        case source
        case targetRef = "target_ref"
        case headSHA = "head_sha"
        case milestone
        case labels
        case reviewRequests = "review_requests"
        case stackedOn = "stacked_on"
        case createdAt = "created_at"
        case mergedAt = "merged_at"
        case mergedBy = "merged_by"
        case closedAt = "closed_at"
        case closedBy = "closed_by"
        case supersededBy = "superseded_by"
        case queued
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        title = try container.decode(String.self, forKey: .title)
        state = try container.decode(MergeRequestState.self, forKey: .state)
        draft = try container.decodeFlag(forKey: .draft)
        author = try container.decode(String.self, forKey: .author)
        source = try container.decode(String.self, forKey: .source)
        targetRef = try container.decode(String.self, forKey: .targetRef)
        headSHA = try container.decode(String.self, forKey: .headSHA)
        milestone = try container.decodeIfPresent(String.self, forKey: .milestone)
        labels = try container.decodeIfPresent([String].self, forKey: .labels)
        reviewRequests = try container.decodeIfPresent([String].self, forKey: .reviewRequests)
        stackedOn = try container.decodeIfPresent(MergeRequestRef.self, forKey: .stackedOn)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        mergedAt = try container.decodeTimestampIfPresent(forKey: .mergedAt)
        mergedBy = try container.decodeIfPresent(String.self, forKey: .mergedBy)
        closedAt = try container.decodeTimestampIfPresent(forKey: .closedAt)
        closedBy = try container.decodeIfPresent(String.self, forKey: .closedBy)
        supersededBy = try container.decodeIfPresent(Int.self, forKey: .supersededBy)
        queued = try container.decodeIfPresent(QueuedMerge.self, forKey: .queued)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(title, forKey: .title)
        try container.encode(state, forKey: .state)
        try container.encodeFlag(draft, forKey: .draft)
        try container.encode(author, forKey: .author)
        try container.encode(source, forKey: .source)
        try container.encode(targetRef, forKey: .targetRef)
        try container.encode(headSHA, forKey: .headSHA)
        try container.encodeIfPresent(milestone, forKey: .milestone)
        try container.encodeIfPresent(labels, forKey: .labels)
        try container.encodeIfPresent(reviewRequests, forKey: .reviewRequests)
        try container.encodeIfPresent(stackedOn, forKey: .stackedOn)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeTimestampIfPresent(mergedAt, precision: .milliseconds, forKey: .mergedAt)
        try container.encodeIfPresent(mergedBy, forKey: .mergedBy)
        try container.encodeTimestampIfPresent(closedAt, precision: .milliseconds, forKey: .closedAt)
        try container.encodeIfPresent(closedBy, forKey: .closedBy)
        try container.encodeIfPresent(supersededBy, forKey: .supersededBy)
        try container.encodeIfPresent(queued, forKey: .queued)
    }
}

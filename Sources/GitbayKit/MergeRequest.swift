import Foundation

/// One merge request as `mr show <repo> <n>` returns it, plus the `updated_at` a forge-state file keeps.
///
/// Carries everything the stacked-ready and build rules read: labels, the stack both ways, checks,
/// reviews, comments (with the server's retarget note) and the merge gates. Every omitempty array
/// decodes as empty when absent or `null`.
public struct MergeRequest: Codable, Sendable, Hashable {
    public var number: Int
    public var title: String
    public var state: MergeRequestState
    /// Whether the MR is a draft (absent means not).
    public var draft: Bool
    public var author: String
    /// The source branch; `owner/name:branch` for a fork; `""` when the source repository is gone.
    public var source: String
    /// The target branch name, without `refs/heads/`.
    public var targetRef: String
    public var headSHA: String
    public var milestone: String?
    public var labels: [String]
    /// Users asked to review.
    public var reviewRequests: [String]
    /// The open MR this one is stacked on, while both are open.
    public var stackedOn: MergeRequestRef?
    /// Open MRs stacked on this one.
    public var stacked: [MergeRequestRef]
    public var body: String?
    public var bodyFormat: BodyFormat?
    /// Statuses on the head commit.
    public var checks: [Check]
    /// The worst state among ``checks``.
    public var checksCombined: CheckState?
    public var unresolvedThreads: Int?
    public var commits: [CommitRef]
    public var comments: [Comment]
    /// Who reacted how to the item itself, `me` saying whether the bot did (`internal/control/react.go`).
    public var reactions: [ReactionCount] = []
    public var reviews: [Review]
    /// Present while the MR is `open` or `source_gone`.
    public var gates: MergeGates?
    public var queued: QueuedMerge?
    public var createdAt: Date
    public var mergedAt: Date?
    public var mergedBy: String?
    public var closedAt: Date?
    public var closedBy: String?
    public var supersededBy: Int?
    /// Last update: NOT sent by `mr show`; present in forge-state files when known.
    public var updatedAt: Date?

    public init(
        number: Int, title: String, state: MergeRequestState, draft: Bool = false, author: String,
        source: String, targetRef: String, headSHA: String, milestone: String? = nil, labels: [String] = [],
        reviewRequests: [String] = [], stackedOn: MergeRequestRef? = nil, stacked: [MergeRequestRef] = [],
        body: String? = nil, bodyFormat: BodyFormat? = nil, checks: [Check] = [], checksCombined: CheckState? = nil,
        unresolvedThreads: Int? = nil, commits: [CommitRef] = [], comments: [Comment] = [], reviews: [Review] = [],
        gates: MergeGates? = nil, queued: QueuedMerge? = nil, createdAt: Date, mergedAt: Date? = nil,
        mergedBy: String? = nil, closedAt: Date? = nil, closedBy: String? = nil, supersededBy: Int? = nil,
        updatedAt: Date? = nil
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
        self.stacked = stacked
        self.body = body
        self.bodyFormat = bodyFormat
        self.checks = checks
        self.checksCombined = checksCombined
        self.unresolvedThreads = unresolvedThreads
        self.commits = commits
        self.comments = comments
        self.reviews = reviews
        self.gates = gates
        self.queued = queued
        self.createdAt = createdAt
        self.mergedAt = mergedAt
        self.mergedBy = mergedBy
        self.closedAt = closedAt
        self.closedBy = closedBy
        self.supersededBy = supersededBy
        self.updatedAt = updatedAt
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
        case stacked
        case body
        case bodyFormat = "body_format"
        case checks
        case checksCombined = "checks_combined"
        case unresolvedThreads = "unresolved_threads"
        case commits
        case comments
        case reactions
        case reviews
        case gates
        case queued
        case createdAt = "created_at"
        case mergedAt = "merged_at"
        case mergedBy = "merged_by"
        case closedAt = "closed_at"
        case closedBy = "closed_by"
        case supersededBy = "superseded_by"
        case updatedAt = "updated_at"
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
        labels = try container.decodeList(String.self, forKey: .labels)
        reviewRequests = try container.decodeList(String.self, forKey: .reviewRequests)
        stackedOn = try container.decodeIfPresent(MergeRequestRef.self, forKey: .stackedOn)
        stacked = try container.decodeList(MergeRequestRef.self, forKey: .stacked)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        bodyFormat = try container.decodeIfPresent(BodyFormat.self, forKey: .bodyFormat)
        checks = try container.decodeList(Check.self, forKey: .checks)
        checksCombined = try container.decodeIfPresent(CheckState.self, forKey: .checksCombined)
        unresolvedThreads = try container.decodeIfPresent(Int.self, forKey: .unresolvedThreads)
        commits = try container.decodeList(CommitRef.self, forKey: .commits)
        comments = try container.decodeList(Comment.self, forKey: .comments)
        reactions = try container.decodeList(ReactionCount.self, forKey: .reactions)
        reviews = try container.decodeList(Review.self, forKey: .reviews)
        gates = try container.decodeIfPresent(MergeGates.self, forKey: .gates)
        queued = try container.decodeIfPresent(QueuedMerge.self, forKey: .queued)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        mergedAt = try container.decodeTimestampIfPresent(forKey: .mergedAt)
        mergedBy = try container.decodeIfPresent(String.self, forKey: .mergedBy)
        closedAt = try container.decodeTimestampIfPresent(forKey: .closedAt)
        closedBy = try container.decodeIfPresent(String.self, forKey: .closedBy)
        supersededBy = try container.decodeIfPresent(Int.self, forKey: .supersededBy)
        updatedAt = try container.decodeTimestampIfPresent(forKey: .updatedAt)
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
        try container.encodeListIfNotEmpty(labels, forKey: .labels)
        try container.encodeListIfNotEmpty(reviewRequests, forKey: .reviewRequests)
        try container.encodeIfPresent(stackedOn, forKey: .stackedOn)
        try container.encodeListIfNotEmpty(stacked, forKey: .stacked)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(bodyFormat, forKey: .bodyFormat)
        try container.encodeListIfNotEmpty(checks, forKey: .checks)
        try container.encodeIfPresent(checksCombined, forKey: .checksCombined)
        try container.encodeIfPresent(unresolvedThreads, forKey: .unresolvedThreads)
        try container.encodeListIfNotEmpty(commits, forKey: .commits)
        try container.encodeListIfNotEmpty(comments, forKey: .comments)
        try container.encodeListIfNotEmpty(reactions, forKey: .reactions)
        try container.encodeListIfNotEmpty(reviews, forKey: .reviews)
        try container.encodeIfPresent(gates, forKey: .gates)
        try container.encodeIfPresent(queued, forKey: .queued)
        try container.encodeTimestamp(createdAt, precision: .milliseconds, forKey: .createdAt)
        try container.encodeTimestampIfPresent(mergedAt, precision: .milliseconds, forKey: .mergedAt)
        try container.encodeIfPresent(mergedBy, forKey: .mergedBy)
        try container.encodeTimestampIfPresent(closedAt, precision: .milliseconds, forKey: .closedAt)
        try container.encodeIfPresent(closedBy, forKey: .closedBy)
        try container.encodeIfPresent(supersededBy, forKey: .supersededBy)
        try container.encodeTimestampIfPresent(updatedAt, precision: .milliseconds, forKey: .updatedAt)
    }
}

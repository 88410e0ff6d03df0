extension MergeRequest {
    /// A merge request known only from its `mr list` row: the fields `mr show` adds are empty.
    ///
    /// Callers that need labels, checks, reviews or comments read `mr show`; the row is what a
    /// listing gives for every merge request at once.
    public init(row: MergeRequestRow) {
        self.init(
            number: row.number, title: row.title, state: row.state, draft: row.draft, author: row.author,
            source: row.source, targetRef: row.targetRef, headSHA: row.headSHA, milestone: row.milestone,
            labels: row.labels ?? [], reviewRequests: row.reviewRequests ?? [], stackedOn: row.stackedOn,
            queued: row.queued, createdAt: row.createdAt, mergedAt: row.mergedAt, mergedBy: row.mergedBy,
            closedAt: row.closedAt, closedBy: row.closedBy, supersededBy: row.supersededBy)
    }
}

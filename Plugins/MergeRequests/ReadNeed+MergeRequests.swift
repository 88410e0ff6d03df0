import RuleEngine

extension ReadNeed {
    /// The repository's open merge requests (their heads and sources).
    public static let openMergeRequests = ReadNeed("openMergeRequests")
    /// The repository's merge requests in every state (to tell whether a stack's parent merged).
    public static let allMergeRequests = ReadNeed("allMergeRequests")
    /// The statuses of a merge request's head, with their descriptions (`status list`), which
    /// `mr show` does not give.
    public static let statuses = ReadNeed("statuses")
    /// Every head a merge request has had, with when gitbay recorded it (`mr revisions`): what
    /// tells the head a `/merge` was given on.
    public static let revisions = ReadNeed("revisions")
}

extension ReadNeedDefinition {
    /// The open ones, listed per repository; the snapshot has them with every merge request.
    static let openMergeRequests = ReadNeedDefinition(.openMergeRequests, cost: "`mr list --state open`", rank: 2)
    /// Every one, listed per repository; the snapshot has them with every merge request.
    static let allMergeRequests = ReadNeedDefinition(.allMergeRequests, cost: "`mr list --state all`", rank: 3)
    /// The head's statuses, read for each merge request a rule that needs them may act on.
    static let statuses = ReadNeedDefinition(
        .statuses, cost: "one `status list` of the item's commit, with descriptions", rank: 4, perItem: true)
    /// The heads, read for each merge request a command may merge.
    static let revisions = ReadNeedDefinition(
        .revisions, cost: "one `mr revisions` of the item", rank: 5, perItem: true)
}

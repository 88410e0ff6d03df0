/// A piece of forge state beyond the list rows that a field or action needs before it can answer.
///
/// The read planner fetches a need only for items that still match once everything cheaper has
/// been decided, which is how a run stays within gitbay's request budget.
public enum ReadNeed: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// An issue's or merge request's labels (learnt from `label:` queries or `show`).
    case labels
    /// An issue's `updated_at` (learnt from `issue list --q` rows).
    case activity
    /// The whole item (`issue show`, `mr show`): body, comments, assignees, checks, reviews.
    case detail
    /// Branch and tag tips (`repo refs`).
    case refs
    /// The dependency checker's state, with its tracking issue (`repo deps status`).
    case dependencies
    /// The repository's open merge requests (their heads and sources).
    case openMergeRequests
    /// The repository's merge requests in every state (to tell whether a stack's parent merged).
    case allMergeRequests

    public static func < (lhs: ReadNeed, rhs: ReadNeed) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

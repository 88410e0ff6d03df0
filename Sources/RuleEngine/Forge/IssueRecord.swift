import GitbayKit

/// One issue as far as the bot knows it: the wire model plus which parts have been read.
///
/// A plain `issue list` row carries no labels and no `updated_at`; rather than pretend those are
/// empty, the record says what it knows, and a field that needs more is "unknown" until the
/// planner fetches it.
public struct IssueRecord: Sendable, Hashable {
    public var issue: Issue
    public var known: Set<ReadNeed>

    public init(issue: Issue, known: Set<ReadNeed>) {
        self.issue = issue
        self.known = known
    }
}

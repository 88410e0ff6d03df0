/// The `--milestone` filter of `issue list` and `mr list`: one title, or items without a milestone.
///
/// gitbay spells "no milestone" as the word `none`, so a milestone literally titled `none` cannot be
/// selected by title; the typed commands refuse it rather than silently asking for the other thing.
public enum MilestoneFilter: Sendable, Hashable {
    /// Items in the milestone with this title.
    case titled(String)
    /// Items with no milestone.
    case withoutMilestone

    /// The argv word gitbay expects.
    var argument: String {
        switch self {
        case .titled(let title): title
        case .withoutMilestone: "none"
        }
    }

    /// Refuses a blank title or the reserved word `none`.
    func validated() throws(GitbayCommandError) -> MilestoneFilter {
        if case .titled(let title) = self {
            _ = try CommandValidation.milestoneTitle(title)
        }
        return self
    }
}

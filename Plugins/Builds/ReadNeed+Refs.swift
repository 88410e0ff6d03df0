import GitbayKit
import RuleEngine

extension ReadNeed {
    /// Branch and tag tips (`repo refs`): a build whose commit is one is still needed.
    public static let refs = ReadNeed("refs")
}

extension ReadNeedDefinition {
    /// The tips, read once per repository by the build listing; first among the repository needs,
    /// as the reference has always listed them.
    static let refs = ReadNeedDefinition(
        .refs, cost: "`repo refs`", rank: 0, snapshot: "repo refs", RepoRefsCommand.init)
}

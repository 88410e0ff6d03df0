import GitbayKit
import RuleEngine

extension ReadNeed {
    /// The dependency checker's state, with its tracking issue (`repo deps status`).
    public static let dependencies = ReadNeed("dependencies")
}

extension ReadNeedDefinition {
    /// The checker's state, read once per repository where an issue may still match a rule that
    /// consults it (the engine's repository reads after the listings).
    ///
    /// The checker keeps its tracking issue by opening, editing and closing it, so only such an
    /// issue event (or a push, which the feed never shows, or an import) may change the state; a
    /// comment or a label does not.
    static let dependencies = ReadNeedDefinition(
        .dependencies, cost: "`repo deps status`", rank: 1, snapshot: "repo deps status",
        changedBy: {
            ["issue.created", "issue.edited", "issue.closed", "issue.open", "repo.imported"].contains($0.kind)
        },
        RepoDepsStatusCommand.init)
}

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
    /// The checker keeps its tracking issue by opening, rewriting and closing it
    /// (`internal/deps/worker.go` `reconcile`): it records `issue.created` for a new one, and
    /// rewrites (`UpdateIssueText`) and closes (`SetIssueState`, the state's number set to 0) with
    /// no event, so those wait for the sweep, whose copy then names an issue now closed, which no
    /// rule on open issues acts on. A person's edit, close or reopen, or an import, is read again
    /// too; a comment or a label never moves the state.
    static let dependencies = ReadNeedDefinition(
        .dependencies, cost: "`repo deps status`", rank: 1, snapshot: "repo deps status",
        changedBy: {
            ["issue.created", "issue.edited", "issue.closed", "issue.open", "repo.imported"].contains($0.kind)
        },
        RepoDepsStatusCommand.init)
}

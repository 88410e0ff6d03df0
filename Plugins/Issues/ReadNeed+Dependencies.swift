import GitbayKit
import RuleEngine

extension ReadNeed {
    /// The dependency checker's state, with its tracking issue (`repo deps status`).
    public static let dependencies = ReadNeed("dependencies")
}

extension ReadNeedDefinition {
    /// The checker's state, read once per repository where an issue may still match a rule that
    /// consults it (the engine's repository reads after the listings).
    static let dependencies = ReadNeedDefinition(
        .dependencies, cost: "`repo deps status`", rank: 1, snapshot: "repo deps status", RepoDepsStatusCommand.init)
}

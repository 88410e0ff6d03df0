import GitbayKit
import RuleEngine

extension ReadNeed {
    /// The dependency checker's state, with its tracking issue (`repo deps status`).
    public static let dependencies = ReadNeed("dependencies")
}

extension ReadNeedDefinition {
    /// The checker's state, read once per repository with listed issues when a condition consults it.
    static let dependencies = ReadNeedDefinition(
        .dependencies, cost: "`repo deps status`", rank: 1, snapshot: "repo deps status", RepoDepsStatusCommand.init)
}

import GitbayKit
import YAML

/// One checked rule: which items it looks at, when it fires, and what it does.
public struct Rule: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var kind: ItemKind
    /// The most actions this rule may take in one run; `nil` for no limit of its own.
    public var limit: Int?
    /// Which repositories it looks at.
    public var scope: RuleScope
    public var condition: ConditionTree
    public var actions: [RuleAction]
    /// When it may act (its own `schedule:`, else the configuration's default); `nil` for always.
    public var schedule: Schedule?
    /// The command in a comment that makes it act (`command:`, `allowed:`); `nil` for a rule that
    /// acts on what it sees.
    public var command: CommandTrigger?
    /// Where the rule starts (its `name:`), for diagnostics and plans.
    public var location: SourceLocation
    /// The repository whose own rules file (`.gitbay/bot.yml`) holds it, whose share of a run's
    /// commands it sends within (``EvaluationOptions/repositoryShare``); `nil` for the operator's.
    public var origin: RepositoryPath?

    public init(
        name: String, description: String?, kind: ItemKind, limit: Int?, scope: RuleScope, condition: ConditionTree,
        actions: [RuleAction], location: SourceLocation, schedule: Schedule? = nil, command: CommandTrigger? = nil
    ) {
        self.name = name
        self.description = description
        self.kind = kind
        self.limit = limit
        self.scope = scope
        self.condition = condition
        self.actions = actions
        self.location = location
        self.schedule = schedule
        self.command = command
    }
}

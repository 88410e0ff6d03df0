import RuleEngine

/// The built-in issue plugin: the fields and actions of the stale-issue lifecycle and of everyday
/// triage (labels, comments, close and reopen, assignees, milestones).
///
/// Each field declares exactly the reads it needs beyond a plain `issue list` row (number, title,
/// state, author, milestone, created_at), so the read planner fetches labels, activity times or
/// whole issues only for the items still in question.
public struct IssuesPlugin: BotPlugin {
    public let name = "Issues"

    public var kinds: [any ItemKindDefinition] { [IssueReader()] }

    public var needs: [ReadNeedDefinition] { [.dependencies] }

    public init() {}

    public func fields(for kind: ItemKind) -> [FieldDefinition] {
        kind == .issues ? Self.fields : []
    }

    public func families(for kind: ItemKind) -> [FieldFamily] {
        kind == .issues ? Self.families : []
    }

    public func actions(for kind: ItemKind) -> [ActionDefinition] {
        kind == .issues ? Self.actions : []
    }
}

import RuleEngine

/// The built-in merge request plugin: stacked MRs (ready the child once the MR below it lands),
/// draft and ready, labels, comments and close.
///
/// It never offers `mr retarget`: gitbay retargets a landed stack itself and keeps its reviews,
/// whereas a manual retarget marks every review stale.
public struct MergeRequestsPlugin: BotPlugin {
    public let name = "MergeRequests"

    public var kinds: [any ItemKindDefinition] { [MergeRequestReader()] }

    public var needs: [ReadNeedDefinition] { [.openMergeRequests, .allMergeRequests, .statuses, .revisions] }

    public var probes: [any QuietChangeProbe] { [OpenMergeRequestProbe()] }

    public init() {}

    public func fields(for kind: ItemKind) -> [FieldDefinition] {
        kind == .mergeRequests ? Self.fields : []
    }

    public func families(for kind: ItemKind) -> [FieldFamily] {
        kind == .mergeRequests ? Self.families : []
    }

    public func actions(for kind: ItemKind) -> [ActionDefinition] {
        kind == .mergeRequests ? Self.actions : []
    }
}

/// One rule matching one item: why it matched and what it will do.
public struct PlanEntry: Sendable, Hashable, Codable {
    /// The rule, by name.
    public var rule: String
    public var item: PlannedItem
    /// Every condition of the rule with the value that satisfied it.
    public var reasons: [ConditionResult]
    public var actions: [PlannedAction]
    /// The rule's conditions, so `apply` can re-check them on a fresh read of the item.
    public var precondition: Precondition

    public init(
        rule: String, item: PlannedItem, reasons: [ConditionResult], actions: [PlannedAction],
        precondition: Precondition
    ) {
        self.rule = rule
        self.item = item
        self.reasons = reasons
        self.actions = actions
        self.precondition = precondition
    }

    /// Whether any action will run.
    public var hasPendingActions: Bool { actions.contains { $0.status == .pending } }

    /// Holds back every pending action, saying which limit or guard did.
    mutating func hold(note: String) {
        for index in actions.indices where actions[index].status == .pending {
            actions[index].status = .held
            actions[index].note = note
        }
    }
}

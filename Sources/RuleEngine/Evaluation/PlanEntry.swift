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
    /// The command in a comment this entry answers; `nil` for a rule without `command:`.
    public var command: PlannedCommand?

    public init(
        rule: String, item: PlannedItem, reasons: [ConditionResult], actions: [PlannedAction],
        precondition: Precondition, command: PlannedCommand? = nil
    ) {
        self.rule = rule
        self.item = item
        self.reasons = reasons
        self.actions = actions
        self.precondition = precondition
        self.command = command
    }

    /// The comment this entry answers a command of, whose entries are answered as one
    /// (``CommentAnswer``); `nil` for a rule without `command:`.
    public var answerKey: CommentAnswer.Key? {
        command.map { CommentAnswer.Key(item: item.reference, comment: $0.comment) }
    }

    /// Whether the entry only tells a person why their command was not done: such replies have a
    /// budget of their own and never count toward a rule's limit, the tripwire or `--max-actions`,
    /// so nobody can hold the bot's real work back by giving commands they may not give.
    public var isRefusal: Bool { command?.refusal != nil }

    /// What a command of this entry waits for, as one line (`krz/app!3: /merge by @alice
    /// (comment 9) waits: …`); `nil` unless an action of a command waits.
    public var waitingNote: String? {
        guard let command, let waiting = actions.first(where: { $0.status == .waiting }) else { return nil }
        return "\(item.reference): \(command.summary) waits: \(waiting.note ?? "not due yet")"
    }

    /// The marker of the bot's comments for this entry: its rule's on its item, and its command's.
    public var marker: String {
        Evaluator.marker(rule: rule, item: item.reference, command: command?.comment)
    }

    /// Whether any action will run.
    public var hasPendingActions: Bool { hasAction(.pending) }

    /// How many commands the entry will send.
    public var pendingCommandCount: Int {
        var count = 0
        for index in actions.indices where actions[index].status == .pending {
            count += 1
        }
        return count
    }

    /// Whether a limit or guard held any action back.
    public var hasHeldActions: Bool { hasAction(.held) }

    /// Looks at each action's status in place: `contains(where:)` would copy every action, and
    /// plans run to a hundred thousand entries.
    private func hasAction(_ status: PlannedAction.Status) -> Bool {
        for index in actions.indices where actions[index].status == status {
            return true
        }
        return false
    }

    /// Holds back every pending action, saying which limit or guard did.
    ///
    /// With `unread`, actions already held because their details were not read are held for this
    /// reason instead: it is why they were left unread (a rule outside its schedule).
    mutating func hold(note: String, unread: Bool = false) {
        for index in actions.indices
        where actions[index].status == .pending || (unread && actions[index].status == .held) {
            actions[index].status = .held
            actions[index].note = note
        }
    }
}

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
    public var command: PlannedCommand? {
        get { answering?.command }
        set { answering = newValue.map(AnsweredCommand.init) }
    }
    /// ``command`` behind one reference, so that the entries of rules without one (nearly all of
    /// a large plan) stay as small as they were: a `PlannedCommand` held inline made every entry
    /// some 80 bytes bigger, and every append, copy and hold of a hundred thousand entries paid
    /// for it (docs/performance.md).
    private var answering: AnsweredCommand?

    private enum CodingKeys: String, CodingKey {
        case rule, item, reasons, actions, precondition
        case answering = "command"
    }

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
        answering.map { CommentAnswer.Key(item: item.reference, comment: $0.command.comment) }
    }

    /// Whether the entry only tells a person why their command was not done: such replies have a
    /// budget of their own and never count toward a rule's limit, the tripwire or `--max-actions`,
    /// so nobody can hold the bot's real work back by giving commands they may not give.
    public var isRefusal: Bool { answering?.command.refusal != nil }

    /// Whether the entry answers a command in a comment; asks without copying the command out.
    public var answersCommand: Bool { answering != nil }

    /// What a command of this entry waits for, as one line (`krz/app!3: /merge by @alice
    /// (comment 9) waits: …`); `nil` unless an action of a command waits.
    public var waitingNote: String? {
        guard let command = answering?.command, let waiting = actions.first(where: { $0.status == .waiting })
        else { return nil }
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

extension Array where Element == PlanEntry {
    /// How many entries in `range` pass `test`, each read in place.
    ///
    /// Reading a property through `entries[index]` in the plan's loops loaded, and so copied, the
    /// whole entry (a score of reference-counted fields) each time, as does handing an entry to a
    /// closure by value; a hundred thousand entries made that a few percent of a plan. An entry
    /// handed `inout` is handed by its address: `mutating` for that only, nothing is changed.
    mutating func count(in range: Range<Int>, where test: (inout PlanEntry) -> Bool) -> Int {
        withUnsafeMutableBufferPointer { buffer in
            var count = 0
            for index in range where test(&buffer[index]) { count += 1 }
            return count
        }
    }

    /// The indices in `range` of the entries that pass `test`, in order, each read in place
    /// (``count(in:where:)``).
    mutating func indices(in range: Range<Int>, where test: (inout PlanEntry) -> Bool) -> [Int] {
        withUnsafeMutableBufferPointer { buffer in range.filter { test(&buffer[$0]) } }
    }

    /// `transform` of each entry, read in place (``count(in:where:)``).
    mutating func mapInPlace<Value>(_ transform: (inout PlanEntry) -> Value) -> [Value] {
        withUnsafeMutableBufferPointer { buffer in buffer.indices.map { transform(&buffer[$0]) } }
    }
}

/// A plan entry's command, shared by the entry's copies rather than copied with them; equal and
/// coded as the command itself.
private final class AnsweredCommand: Sendable, Hashable, Codable {
    let command: PlannedCommand

    init(_ command: PlannedCommand) {
        self.command = command
    }

    init(from decoder: any Decoder) throws {
        command = try PlannedCommand(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try command.encode(to: encoder)
    }

    static func == (lhs: AnsweredCommand, rhs: AnsweredCommand) -> Bool {
        lhs.command == rhs.command
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(command)
    }
}

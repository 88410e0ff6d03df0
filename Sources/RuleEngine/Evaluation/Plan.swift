import Foundation

/// What a run will do and why: the output of evaluation, the input of `apply`.
///
/// Its JSON form is a documented, versioned schema (`format`), saved by `plan -o` and read by
/// `apply` and other tools; fields are only ever added within a format version.
public struct Plan: Sendable, Hashable, Codable {
    /// The format marker of this version of the schema.
    public static let currentFormat = "gitbay-bot-plan/1"

    /// A rule's totals in this plan.
    public struct RuleSummary: Sendable, Hashable, Codable {
        public var name: String
        public var kind: ItemKind
        public var description: String?
        /// Where the rule is written, `file:line:column`.
        public var location: String
        /// Items the rule looked at (its kind, in its scope).
        public var considered: Int
        /// Items whose conditions all held.
        public var matched: Int
        /// Items with at least one pending action.
        public var acting: Int
        /// Items whose pending actions a limit or guard held back.
        public var held: Int
        /// The rule's schedule, so `apply` checks the window again when it applies the plan.
        public var schedule: Schedule?
        /// Why the rule holds everything it matched, when it was outside its schedule at the
        /// evaluation instant (`outside its schedule; next window Mon 2026-11-30 09:00 Europe/Berlin`),
        /// so a plan says so even when the rule matched nothing.
        public var outsideSchedule: String?
        /// The items the rule would act on but for a value none of them has yet; absent when none.
        public var waiting: Waiting?
        /// The tripwire's note when it holds the rule back whole (also among the plan's guards);
        /// absent otherwise, so `watch` can say which rules it holds without reading guard text.
        public var tripwire: String?

        public init(
            name: String, kind: ItemKind, description: String?, location: String, considered: Int = 0,
            matched: Int = 0, acting: Int = 0, held: Int = 0, schedule: Schedule? = nil
        ) {
            self.name = name
            self.kind = kind
            self.description = description
            self.location = location
            self.considered = considered
            self.matched = matched
            self.acting = acting
            self.held = held
            self.schedule = schedule
        }

        /// Counts an item the rule waits on for `fields` (``waiting``).
        mutating func countWaiting(_ reference: String, on fields: [String]) {
            var waiting = self.waiting ?? Waiting(count: 0, fields: [], first: reference)
            waiting.add(fields)
            self.waiting = waiting
        }
    }

    /// Items a rule rejects only for want of a value nobody has yet.
    ///
    /// A notice of a rule's that is not on the item (`comment_age.mark-stale`), a label nobody can
    /// date (`label_age.stale`) (``FieldDefinition/absenceWaits``): unless something gives them
    /// one, the rule waits on them forever, so the plan counts them and names one for `explain`.
    public struct Waiting: Sendable, Hashable, Codable {
        /// How many items wait.
        public var count: Int
        /// The fields they wait on, in the order the rule's conditions name them.
        public var fields: [String]
        /// The first item waiting, as `explain` takes it: `krz/app#12`.
        public var first: String

        public init(count: Int, fields: [String], first: String) {
            self.count = count
            self.fields = fields
            self.first = first
        }

        /// Counts one more item, waiting on `fields`.
        mutating func add(_ fields: [String]) {
            count += 1
            for field in fields where !self.fields.contains(field) { self.fields.append(field) }
        }
    }

    public var format: String
    /// The instant the plan was evaluated at.
    public var evaluatedAt: Date
    /// The bot's account.
    public var me: String
    /// The other accounts the plan took for automation (`bots:`), sorted; absent when none, so
    /// `apply` re-checks each entry as it was judged.
    public var automation: [String]?
    /// Where the state came from: the server's URL, or `snapshot:<file>`.
    public var source: String
    public var rules: [RuleSummary]
    public var entries: [PlanEntry]
    /// Guards that tripped (the blast-radius tripwire, the action cap), for the output's summary.
    public var guards: [String]
    /// What the plan leaves for later runs without holding back anything the rules asked for
    /// (refusals beyond a run's replies); absent when nothing.
    public var notes: [String]?

    public init(
        evaluatedAt: Date, me: String, source: String, rules: [RuleSummary], entries: [PlanEntry], guards: [String]
    ) {
        self.format = Self.currentFormat
        self.evaluatedAt = evaluatedAt
        self.me = me
        self.source = source
        self.rules = rules
        self.entries = entries
        self.guards = guards
    }

    /// The entries that act, with only their pending actions, in order: what a run sends, which
    /// must not depend on how much it read.
    ///
    /// Notes quote run-wide counts, and the reasons of an entry a guarded read left unread show
    /// `(not read)` where a full read shows a value, so both are left out: they explain a
    /// decision, they are not one.
    public var acting: [PlanEntry] {
        entries.compactMap { entry in
            var entry = entry
            entry.reasons = []
            entry.actions = entry.actions.filter { $0.status == .pending }.map {
                PlannedAction(action: $0.action, status: .pending, command: $0.command, argument: $0.argument)
            }
            return entry.actions.isEmpty ? nil : entry
        }
    }

    /// The commands that will run, in order.
    public var pendingCommandCount: Int {
        entries.reduce(0) { $0 + $1.pendingCommandCount }
    }
}
